import type { Messages } from '../types';

export const extension: Messages<'extension'> = {
  failed: '{what} de l’extension a échoué ; l’élément intégré est affiché à sa place.',
  failedShort: 'Échec de l’extension',
  notLoaded: 'Le module d’extension n’a pas pu être chargé ; chaque écran est donc celui intégré : {reason}',
  actionDone: 'Fait : {label}.',
  actionFailed: '« {label} » n’a pas eu lieu.',
  actionNetworkFailed: 'La requête n’a pas atteint le serveur. Rien n’a changé ; réessayez.',
  actionCancel: 'Revenir',
  actions: 'Autres actions',
  rowActions: 'Actions',
  confirmTitle: '{label} ?',
  actionNotRunnable: '« {label} » nomme un appel que ce client ne peut pas faire : {call}.',
};
