import type { Messages } from '../types';

export const views: Messages<'views'> = {
  rowsPerPage: 'Lignes par page',
  savedViews: 'Vues enregistrées',
  noSavedViews: 'Aucune : enregistrez cette liste telle qu’elle est, sous un nom.',
  viewName: 'Nom de cette vue',
  saveView: 'Enregistrer',
  deleteView: 'Supprimer la vue {name}',
  viewsNotKept: 'Ce navigateur ne garde pas les vues : elles durent jusqu’à ce que la page soit quittée.',
};
