/** What the client says after a write: saved, deleted (with undo), a state changed. */
export const feedback = {
  created: '{entity} “{name}” was created.',
  saved: 'Changes to “{name}” were saved.',
  deleting: '“{name}” will be deleted in {seconds} seconds.',
  deleted: '“{name}” was deleted.',
  deleteFailed: '“{name}” could not be deleted: {reason}',
  kept: '“{name}” was not deleted.',
  transitioned: '{transition}: done.',
  undone: '{transition} was undone.',
  undo: 'Undo',
  dismiss: 'Dismiss',
  notices: 'Notifications',
} as const;
