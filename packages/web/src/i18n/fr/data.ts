import type { Messages } from '../types';

export const data: Messages<'data'> = {
  networkTitle: 'Pas de connexion au serveur',
  networkText: 'La requête est restée sans réponse. Vérifiez votre connexion, puis réessayez.',
  abortedText: 'La requête a été annulée.',
  statusTitle: 'Le serveur a refusé cette requête',
  statusText: 'Le serveur a répondu avec le statut {status}.',
  unexpectedAnswer: 'Le serveur a répondu par quelque chose que ce client ne sait pas lire.',
  missingCall: 'La spécification ne nomme aucun appel pour cela : le client ne peut donc pas le faire.',
  reference: 'Référence pour l’assistance : {reference}',
  retry: 'Réessayer',
};
