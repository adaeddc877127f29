import type { Messages } from '../types';

export const changes: Messages<'changes'> = {
  heading: 'Modifications',
  empty: 'Aucune modification enregistrée pour l’instant.',
  failed: 'Les modifications n’ont pas pu être chargées.',
  retry: 'Réessayer',
  older: 'Afficher les modifications plus anciennes',
  created: 'Création',
  updated: 'Modification',
  deleted: 'Suppression',
  by: 'par {who}',
  anonymous: 'sans connexion',
  field: 'Champ',
  before: 'Avant',
  after: 'Après',
  of: 'Modifications de',
  everything: 'Tout',
  download: 'Télécharger en CSV',
  exportFailed: 'Les modifications n’ont pas pu être téléchargées : {message}',
  nothingShown: 'Rien de ce que vous pouvez voir n’a changé.',
};
