/** A list's columns, rows per page and saved views, loaded with their panel. */
export const views = {
  rowsPerPage: 'Rows per page',
  savedViews: 'Saved views',
  noSavedViews: 'None yet: save this list as it is now, under a name.',
  viewName: 'Name of this view',
  saveView: 'Save',
  deleteView: 'Delete the view {name}',
  viewsNotKept: 'This browser would not keep the views: they last until the page is left.',
} as const;
