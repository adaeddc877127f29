import { access as enAccess } from './en/access';
import { drafts as enDrafts } from './en/drafts';
import { errors as enErrors } from './en/errors';
import { form as enForm } from './en/form';
import { importer as enImporter } from './en/importer';
import { list as enList } from './en/list';
import { session as enSession } from './en/session';
import { shell as enShell } from './en/shell';
import { access as frAccess } from './fr/access';
import { drafts as frDrafts } from './fr/drafts';
import { errors as frErrors } from './fr/errors';
import { form as frForm } from './fr/form';
import { importer as frImporter } from './fr/importer';
import { list as frList } from './fr/list';
import { session as frSession } from './fr/session';
import { shell as frShell } from './fr/shell';
import type { Catalogue } from './types';

/** The source language: every other catalogue must have exactly its keys (checked by the types). */
export const english = {
  shell: enShell,
  list: enList,
  form: enForm,
  importer: enImporter,
  access: enAccess,
  session: enSession,
  drafts: enDrafts,
  errors: enErrors,
};

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', fr: 'Français' };

export const catalogues: Record<Locale, Catalogue> = {
  en: english,
  fr: {
    shell: frShell,
    list: frList,
    form: frForm,
    importer: frImporter,
    access: frAccess,
    session: frSession,
    drafts: frDrafts,
    errors: frErrors,
  },
};
