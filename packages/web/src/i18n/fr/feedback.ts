import type { Messages } from '../types';

export const feedback: Messages<'feedback'> = {
  created: '{entity} « {name} » a été créé.',
  saved: 'Les modifications de « {name} » ont été enregistrées.',
  deleting: '« {name} » sera supprimé dans {seconds} secondes.',
  deleted: '« {name} » a été supprimé.',
  deleteFailed: '« {name} » n’a pas pu être supprimé : {reason}',
  kept: '« {name} » n’a pas été supprimé.',
  transitioned: '{transition} : fait.',
  undone: '{transition} a été annulé.',
  undo: 'Annuler',
  dismiss: 'Fermer',
  notices: 'Notifications',
};
