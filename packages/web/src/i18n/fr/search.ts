import type { Messages } from '../types';

export const search: Messages<'search'> = {
  label: 'Rechercher un écran ou une fiche',
  placeholder: 'Un nom, un e-mail, un numéro…',
  results: 'Résultats',
  screen: 'Écran',
  allIn: 'Tous les résultats dans {list}',
  pending: 'Recherche…',
  hint: 'Trouve les écrans par leur titre, et les fiches dans {lists}.',
  screensOnly: 'Trouve les écrans par leur titre : aucune liste ici ne se recherche.',
  nothing: 'Rien ne correspond à « {text} ».',
  close: 'Fermer',
  failed: '{lists} n’ont pas pu être recherchés.',
};
