/**
 * Messages of failed calls that the error catalogue (point 8) does not cover, their actions, and the
 * shell's offline banner.
 */
export const errors = {
  network: 'The server could not be reached. Check the connection and try again.',
  signIn: 'Your session has ended. Sign in to go on; what you typed stays here.',
  forbidden: 'You may not do this.',
  notFound: 'This could not be found. It may have been deleted.',
  conflict: 'This could not be done now: the record is not in a state that allows it.',
  changed: 'Someone else changed this record since you opened it.',
  invalid: 'Some values were not accepted.',
  busy: 'Too many requests for now. Wait a moment, then try again.',
  busyFor_one: 'Too many requests for now. Wait {count} second, then try again.',
  busyFor_other: 'Too many requests for now. Wait {count} seconds, then try again.',
  server: 'The server had a problem. Try again in a moment.',
  refused: 'The request was refused.',
  maybeSaved:
    'This may already have been saved, with the values sent the first time. Check the list before saving again.',
  unconfirmed:
    'No answer came back, so this may or may not have been saved. Look for it before saving again: saving again could store it twice.',
  unconfirmedLook: 'Look in the list',
  client: 'Something went wrong in this page.',
  reference: 'Reference: {reference}',
  retry: 'Try again',
  signInAction: 'Sign in',
  goBack: 'Go back',
  fixField: 'Go to the field',
  reload: 'Reload',
  offlineTitle: 'You are offline',
  offline:
    'This device has no network connection. What you see may be out of date, and nothing can be saved until it is back.',
  unreachableTitle: 'The server cannot be reached',
  unreachable:
    'Requests get no answer. What you see may be out of date, and nothing can be saved until the server answers.',
  checkAgain: 'Check again',
  backOnline: 'The connection is back.',
  liveLostTitle: 'Live updates paused',
  liveLost: 'Changes by others are not shown as they happen until the connection is back. Trying again…',
} as const;
