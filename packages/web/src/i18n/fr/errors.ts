import type { Messages } from '../types';

export const errors: Messages<'errors'> = {
  network: 'Le serveur est injoignable. Vérifiez la connexion et réessayez.',
  signIn: 'Votre session a pris fin. Connectez-vous pour continuer ; ce que vous avez saisi reste ici.',
  forbidden: 'Vous ne pouvez pas faire ceci.',
  notFound: 'Introuvable. Cet élément a peut-être été supprimé.',
  conflict: 'Impossible pour l’instant : l’enregistrement n’est pas dans un état qui le permet.',
  changed: 'Quelqu’un d’autre a modifié cet enregistrement depuis que vous l’avez ouvert.',
  invalid: 'Certaines valeurs n’ont pas été acceptées.',
  busy: 'Trop de requêtes pour l’instant. Patientez un moment, puis réessayez.',
  busyFor_one: 'Trop de requêtes pour l’instant. Patientez {count} seconde, puis réessayez.',
  busyFor_other: 'Trop de requêtes pour l’instant. Patientez {count} secondes, puis réessayez.',
  server: 'Le serveur a rencontré un problème. Réessayez dans un moment.',
  maybeSaved:
    'Ceci a peut-être déjà été enregistré, avec les valeurs envoyées la première fois. Vérifiez la liste avant d’enregistrer à nouveau.',
  refused: 'La requête a été refusée.',
  unconfirmed:
    'Aucune réponse n’est revenue : ceci a peut-être été enregistré, ou peut-être pas. Cherchez-le avant d’enregistrer à nouveau : enregistrer encore pourrait le stocker deux fois.',
  unconfirmedLook: 'Chercher dans la liste',
  client: 'Une erreur est survenue dans cette page.',
  reference: 'Référence : {reference}',
  retry: 'Réessayer',
  signInAction: 'Se connecter',
  goBack: 'Revenir en arrière',
  fixField: 'Aller au champ',
  reload: 'Recharger',
  offlineTitle: 'Vous êtes hors ligne',
  offline:
    'Cet appareil n’a pas de connexion réseau. Ce que vous voyez peut être périmé, et rien ne peut être enregistré avant son retour.',
  unreachableTitle: 'Le serveur est injoignable',
  unreachable:
    'Les requêtes restent sans réponse. Ce que vous voyez peut être périmé, et rien ne peut être enregistré avant que le serveur réponde.',
  checkAgain: 'Vérifier à nouveau',
  backOnline: 'La connexion est revenue.',
  liveLostTitle: 'Mises à jour en direct suspendues',
  liveLost:
    'Les modifications des autres ne s’affichent plus en direct jusqu’au retour de la connexion. Nouvelle tentative…',
};
