import type { Messages } from '../types';

export const shortcuts: Messages<'shortcuts'> = {
  title: 'Raccourcis clavier',
  help: 'Afficher cette aide',
  search: 'Rechercher dans cette liste',
  create: 'Nouvel élément, sur une liste',
  edit: 'Modifier, sur un élément',
  everywhere: 'Rechercher partout',
  close: 'Fermer une boîte de dialogue ou un menu',
  note: 'Les raccourcis fonctionnent quand aucune zone de texte n’a le focus.',
};
