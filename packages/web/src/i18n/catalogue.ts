import { exhaustiveSwitchError } from '@ninefold/spec';
import { access as enAccess } from './en/access';
import { drafts as enDrafts } from './en/drafts';
import { errors as enErrors } from './en/errors';
import { extension as enExtension } from './en/extension';
import { form as enForm } from './en/form';
import { importer as enImporter } from './en/importer';
import { list as enList } from './en/list';
import { session as enSession } from './en/session';
import { shell as enShell } from './en/shell';
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
  extension: enExtension,
};

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', fr: 'Français' };

/** The catalogues loaded so far; English is always there, and is what a missing one falls back to. */
const loaded = new Map<Locale, Catalogue>([['en', english]]);

/** The catalogue of a language, once `loadLocale` has loaded it; English until then. */
export function catalogueOf(locale: Locale): Catalogue {
  return loaded.get(locale) ?? english;
}

export function isLoaded(locale: Locale): boolean {
  return loaded.has(locale);
}

/**
 * Loads a language's catalogue. Only English is in the first load's code: each other language is a
 * chunk of its own, fetched by those who read it (at start, beside the model, when it is their language).
 */
export async function loadLocale(locale: Locale): Promise<void> {
  if (loaded.has(locale)) return;
  switch (locale) {
    case 'en':
      return;
    case 'fr':
      loaded.set('fr', (await import('./fr')).french);
      return;
    default:
      return exhaustiveSwitchError(locale);
  }
}
