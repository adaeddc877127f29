/** Notices about a team's extension module (docs/extending.md) and its actions. */
export const extension = {
  failed: '{what} of the extension failed; the built-in one is shown.',
  failedShort: 'Extension failed',
  notLoaded: 'The extension module could not be loaded, so every screen is the built-in one: {reason}',
  actionDone: 'Done: {label}.',
  actionFailed: '“{label}” did not happen.',
  actionNetworkFailed: 'The request did not reach the server. Nothing was changed; try again.',
  actionCancel: 'Go back',
  actions: 'More actions',
  rowActions: 'Actions',
  confirmTitle: '{label}?',
  actionNotRunnable: '“{label}” names a call this client cannot run: {call}.',
};
