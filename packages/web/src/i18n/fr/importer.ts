import type { Messages } from '../types';

export const importer: Messages<'importer'> = {
  title: 'Prévisualiser un document OpenAPI',
  intro:
    'Choisissez un document OpenAPI 2.0, 3.0 ou 3.1 (JSON ou YAML). Il est lu et importé dans cet onglet, en arrière-plan : rien n’est envoyé. L’aperçu garde ses enregistrements dans la mémoire de cet onglet et commence vide.',
  fileLabel: 'Document OpenAPI',
  dropHint: 'ou déposez le fichier ici',
  urlLabel: 'ou son adresse sur ce site',
  urlRead: 'Lire',
  urlInvalid: 'Donnez une adresse sur ce site, comme /openapi.json.',
  cancel: 'Annuler',
  cancelled: 'L’import a été annulé.',
  step: 'Étape {step} sur 4 : {stage}',
  stage_download: 'lecture du fichier',
  stage_read: 'analyse du document',
  stage_map: 'correspondance avec les neuf points',
  stage_check: 'vérification du modèle',
  downloaded: '{loaded} sur {total} Mo',
  downloadedNoTotal: '{loaded} Mo',
  elapsed: '{seconds} s',
  failedTitle: 'Le document n’a pas pu être importé',
  workerFailed: 'L’import n’a pas pu s’exécuter en arrière-plan : {reason}',
  importedTitle: '{file} importé (OpenAPI {version}) en {seconds} s',
  importedWithErrorsTitle: '{file} contient des erreurs : il n’y a rien à prévisualiser',
  summary:
    '{entities} entités, {screens} écrans et {calls} appels. Le rapport d’import : {mapped} repris, {inferred} déduits, {notShown} non montrés, {skipped} ignorés.',
  coverage: '{shown} points sur 9 montrés.',
  issuesTitle: 'Problèmes',
  issuesMore_one: 'et {count} autre problème',
  issuesMore_other: 'et {count} autres problèmes',
  open: 'Ouvrir l’aperçu',
};
