/** The keyboard's shortcuts, as the help that `?` opens lists them. */
export const shortcuts = {
  title: 'Keyboard shortcuts',
  help: 'Show this help',
  search: 'Search this list',
  create: 'New record, on a list',
  edit: 'Edit, on a record',
  everywhere: 'Search everything',
  close: 'Close a dialog or a menu',
  note: 'Shortcuts work when no text box has the focus.',
} as const;
