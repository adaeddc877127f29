import type { Messages } from '../types';

export const access: Messages<'access'> = {
  notAllowedTitle: 'Accès refusé',
  signIn: 'Se connecter',
  screenRole: 'Le rôle {role} ne peut pas voir cette page.',
  notSignedIn: 'Connectez-vous pour voir cette page.',
  noGrantRead: 'Le rôle {role} ne peut pas voir ces éléments ({things}).',
  noGrantCreate: 'Le rôle {role} ne peut pas créer ces éléments ({things}).',
  noGrantUpdate: 'Le rôle {role} ne peut pas modifier ces éléments ({things}).',
  noGrantDelete: 'Le rôle {role} ne peut pas supprimer ces éléments ({things}).',
  conditionRead: 'Le rôle {role} ne peut voir que certains de ces éléments ({things}), et pas celui-ci.',
  conditionCreate: 'Le rôle {role} ne peut créer que certains de ces éléments ({things}).',
  conditionUpdate:
    'Le rôle {role} ne peut modifier que certains de ces éléments ({things}), et pas celui-ci.',
  conditionDelete:
    'Le rôle {role} ne peut supprimer que certains de ces éléments ({things}), et pas celui-ci.',
  reasonFor: '{action} : {reason}',
  tilesNoneForRole: 'Votre rôle ne peut voir aucune des listes que ce tableau de bord résume.',
  transitions: 'Changer l’état',
  transitionState: 'Possible seulement depuis l’état {states}.',
  transitionRole: 'Le rôle {role} ne peut pas faire cela.',
  transitionGuard: 'Impossible pour le moment.',
  transitionError: 'Cette étape ne peut pas être vérifiée : sa condition dans la spécification est erronée.',
  transitionFailed: '« {name} » n’a pas abouti',
  transitionRefused: '« {name} » n’est pas possible pour l’instant',
  transitionNetworkFailed: 'Le réseau a échoué et rien n’a changé. Vérifiez votre connexion et réessayez.',
  transitionUnknownFailure: 'Un problème est survenu ; rien n’a été changé.',
  confirmTitle: '{name} ?',
  goBack: 'Revenir',
  moreSteps: 'Plus ({count})',
  notPossibleNow: 'Impossible pour le moment',
};
