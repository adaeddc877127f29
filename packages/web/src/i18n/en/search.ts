/** The search across the client (Ctrl+K), loaded with its dialog. */
export const search = {
  label: 'Search for a screen or a record',
  placeholder: 'A name, an email, a number…',
  results: 'Results',
  screen: 'Screen',
  allIn: 'All matches in {list}',
  pending: 'Searching…',
  hint: 'Finds screens by title, and records in {lists}.',
  screensOnly: 'Finds screens by title: no list here takes a search.',
  nothing: 'Nothing matches “{text}”.',
  close: 'Close',
  failed: '{lists} could not be searched.',
} as const;
