/** A record's changes, from the prototype API's audit trail: who changed which field, and when. */
export const changes = {
  heading: 'Changes',
  empty: 'No change has been recorded yet.',
  failed: 'The changes could not be loaded.',
  retry: 'Try again',
  older: 'Show older changes',
  created: 'Created',
  updated: 'Edited',
  deleted: 'Deleted',
  by: 'by {who}',
  anonymous: 'without sign-in',
  field: 'Field',
  before: 'Before',
  after: 'After',
  nothingShown: 'Nothing you may see changed.',
} as const;
