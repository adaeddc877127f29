/**
 * Messages of the work a form must not lose (drafts kept in the browser, a save refused because someone
 * else changed the record), and of a record's state machine and its history.
 */
export const drafts = {
  // Drafts
  offerTitle: 'Unsaved changes',
  offerText: 'You have unsaved changes from {time}.',
  offerChanged:
    'This {entity} has been changed by someone else since. If you restore your changes, saving shows both versions so that you can choose.',
  offerFiles: 'Files are not kept in the browser: choose {files} again.',
  restore: 'Restore',
  discard: 'Discard',
  tooLarge: 'Your changes are too large to be kept in this browser until you save them.',
  unavailable: 'This browser cannot keep your changes (its storage is off or full): save before you leave.',
  // Conflicts
  conflictTitle: 'Your changes to this {entity} were not saved',
  conflictText: 'Nothing you typed is lost. Compare the two versions and choose what to keep.',
  conflictNone: 'The fields of this form are the same in both versions.',
  conflictCaption: 'Fields that differ',
  conflictField: 'Field',
  conflictMine: 'Yours',
  conflictTheirs: 'Theirs',
  conflictKeep: 'Keep',
  conflictChoice: 'Which value of {field} to keep',
  keepMine: 'Keep mine',
  takeTheirs: 'Take theirs',
  saveChoices: 'Save my choices',
  // File sizes
  fileTooLarge: '{size} is more than the {max} allowed.',
  // State machines
  statesHeading: 'States',
  diagramTitle: 'States of {entity}',
  states_one: '{count} state',
  states_other: '{count} states',
  transitions_one: '{count} transition',
  transitions_other: '{count} transitions',
  diagramSummary: '{states} and {transitions}.',
  currentState: 'Current state: {state}.',
  initialState: 'A new {entity} starts as {state}.',
  finalStates: 'Final states: {states}.',
  transitionLine: '{transition}: from {from} to {to}',
  transitionsList: 'Transitions',
  currentMark: 'current',
  finalMark: 'final',
  // History
  historyHeading: 'History',
  historyEmpty: 'No transition has been taken yet.',
  historyStep: '{transition}: {from} to {to}',
  historyBy: 'by {who}',
  historyAnonymous: 'without sign-in',
  historyFailed: 'The history could not be loaded.',
} as const;
