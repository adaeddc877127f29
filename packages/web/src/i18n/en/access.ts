/** What a role may not see or do: refused pages, and the reasons shown beside disabled actions. */
export const access = {
  notAllowedTitle: 'Not allowed',
  signIn: 'Sign in',
  /** The page's roles do not include this one. */
  screenRole: 'The role {role} may not see this page.',
  notSignedIn: 'Sign in to see this page.',
  noGrantRead: 'The role {role} may not see {things}.',
  noGrantCreate: 'The role {role} may not create {things}.',
  noGrantUpdate: 'The role {role} may not change {things}.',
  noGrantDelete: 'The role {role} may not delete {things}.',
  conditionRead: 'The role {role} may see only some {things}, and not this one.',
  conditionCreate: 'The role {role} may create only some {things}.',
  conditionUpdate: 'The role {role} may change only some {things}, and not this one.',
  conditionDelete: 'The role {role} may delete only some {things}, and not this one.',
  /** Before a reason: which disabled action it explains. */
  reasonFor: '{action}: {reason}',
  tilesNoneForRole: 'Your role may see none of the lists this dashboard sums up.',
  // Transitions of point 4
  transitions: 'Change the state',
  transitionState: 'Possible only from {states}.',
  transitionRole: 'The role {role} may not do this.',
  transitionGuard: 'Not possible now.',
  transitionError: 'This step cannot be checked: its condition in the specification is broken.',
  transitionFailed: '"{name}" did not go through',
  transitionRefused: '"{name}" is not possible now',
  transitionNetworkFailed: 'The network failed and nothing changed. Check your connection and try again.',
  transitionUnknownFailure: 'Something went wrong; nothing was changed.',
  confirmTitle: '{name}?',
  goBack: 'Go back',
  moreSteps: 'More ({count})',
  notPossibleNow: 'Not possible now',
};
