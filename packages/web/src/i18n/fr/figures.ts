import type { Messages } from '../types';

export const figures: Messages<'figures'> = {
  heading: 'Chiffres',
  loading: 'Calcul de {title}…',
  failed: 'Ce chiffre n’a pas pu être calculé : {message}',
  retry: 'Réessayer',
  notAvailable:
    'Indisponible : l’API n’a pas d’appel qui donne ce chiffre. Le point 7 peut en nommer un dans la colonne Call du chiffre.',
  empty: 'Aucun enregistrement à compter pour l’instant.',
  noValue: 'Aucune valeur : il n’y a aucun enregistrement dont faire la moyenne.',
  legendEntry: '{label}\u00a0: {value}',
  showTable: 'Afficher en tableau',
  showChart: 'Afficher en graphique',
  view: 'Affichage de {title}',
  chart: 'Graphique',
  table: 'Tableau',
  group: 'Groupe',
  value: 'Valeur',
  none: '(aucun)',
  more: 'et {count} autres non affichés',
  period: 'Période',
  perDay: 'Par jour',
  perWeek: 'Par semaine',
  perMonth: 'Par mois',
  summary: '{title} : {count} groupes, le plus grand {label} avec {value}.',
  summaryPeriods: '{title} : {count} périodes, de {first} à {last} ; la dernière vaut {value}.',
};
