/** Messages of the data layer: what a person reads when a request fails before the error catalogue speaks. */
export const data = {
  networkTitle: 'No connection to the server',
  networkText: 'The request got no answer. Check your connection, then try again.',
  abortedText: 'The request was cancelled.',
  statusTitle: 'The server refused this request',
  statusText: 'The server answered with status {status}.',
  unexpectedAnswer: 'The server answered with something this client cannot read.',
  missingCall: 'The specification names no call for this, so the client cannot do it.',
  reference: 'Reference for support: {reference}',
  retry: 'Try again',
} as const;
