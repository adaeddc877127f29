import type { Messages } from '../types';

export const session: Messages<'session'> = {
  signInTitle: 'Connexion',
  email: 'E-mail',
  userName: 'E-mail ou nom d’utilisateur',
  password: 'Mot de passe',
  apiKey: 'Clé d’API',
  accessToken: 'Jeton d’accès',
  orPasteToken: 'Ou collez un jeton d’accès',
  submit: 'Se connecter',
  withProvider: 'Se connecter avec {host}',
  clientId: 'Identifiant du client',
  clientIdHelp:
    'L’identifiant que {host} a donné à ce client lors de son inscription. Il est gardé pour cet onglet.',
  rejected: 'Le serveur n’a pas accepté ces identifiants.',
  tooMany_one: 'Trop de tentatives. Attendez {count} seconde avant de réessayer.',
  tooMany_other: 'Trop de tentatives. Attendez {count} secondes avant de réessayer.',
  tooManyNoTime: 'Trop de tentatives. Attendez un moment avant de réessayer.',
  network: 'Le serveur est injoignable. Vérifiez la connexion et réessayez.',
  unreadable: 'Le serveur a répondu, mais sans session utilisable par ce client.',
  failedTitle: 'La connexion a échoué',
  noSignInCall:
    'La spécification prévoit une connexion par mot de passe mais aucun appel de connexion : ce client ne peut pas se connecter.',
  keyInQuery:
    'La spécification place la clé d’API dans l’adresse. Les adresses finissent dans les journaux : ce client ne l’envoie donc pas.',
  badKeyName:
    'La spécification nomme la clé d’API « {name} », qui ne peut pas être un nom d’en-tête ni de cookie.',
  cookieElsewhere:
    'La spécification place la clé d’API dans un cookie, mais l’API est à une autre adresse, où cette page ne peut pas en déposer.',
  wrongKind: 'Ce client ne peut pas se connecter de cette façon.',
  noSignIn: 'Ce client ne demande pas de connexion : sa spécification n’en prévoit aucune.',
  alreadySignedIn: 'Vous êtes connecté en tant que {name}. Une nouvelle connexion remplace cette session.',
  session: 'Votre session',
  signedIn: 'Connecté',
  roleUnknown: 'rôle inconnu',
  signIn: 'Se connecter',
  signOut: 'Se déconnecter',
  expiredTitle: 'Votre session a pris fin',
  expiredText:
    'Reconnectez-vous pour continuer. Cette page reste telle quelle, avec tout ce que vous avez saisi.',
  needSignInTitle: 'Connectez-vous pour continuer',
  needSignInText: 'Le serveur doit savoir qui vous êtes avant de répondre.',
  leavesPage: 'Se connecter avec {host} quitte cette page, et ce que vous y avez saisi est perdu.',
  close: 'Fermer',
  callbackTitle: 'Connexion en cours…',
  callbackFailed: 'La connexion n’a pas abouti',
  backToSignIn: 'Retour à la page de connexion',
};
