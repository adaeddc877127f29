import { exhaustiveSwitchError } from '@ninefold/model';
import { loadSpecWords } from '../app/spec-words';
import { access as enAccess } from './en/access';
import type { bulk as enBulk } from './en/bulk';
import type { changes as enChanges } from './en/changes';
import type { drafts as enDrafts } from './en/drafts';
import { errors as enErrors } from './en/errors';
import { extension as enExtension } from './en/extension';
import type { feedback as enFeedback } from './en/feedback';
import type { figures as enFigures } from './en/figures';
import type { form as enForm } from './en/form';
import type { importCsv as enImportCsv } from './en/importCsv';
import type { importer as enImporter } from './en/importer';
import { list as enList } from './en/list';
import type { people as enPeople } from './en/people';
import type { search as enSearch } from './en/search';
import { session as enSession } from './en/session';
import { shell as enShell } from './en/shell';
import type { shortcuts as enShortcuts } from './en/shortcuts';
import type { views as enViews } from './en/views';
import type { Catalogue } from './types';

const firstEnglish = {
  shell: enShell,
  list: enList,
  access: enAccess,
  session: enSession,
  errors: enErrors,
  extension: enExtension,
};

/**
 * Areas no first screen shows (records' fields and forms, the import page, drafts, the state diagram, the search across the client, bulk changes, CSV imports and what is said after a write): their English comes with
 * the code that shows them, which adds it with `addEnglish` when it loads, instead of with every page.
 */
interface LaterEnglish {
  form: typeof enForm;
  importer: typeof enImporter;
  drafts: typeof enDrafts;
  search: typeof enSearch;
  bulk: typeof enBulk;
  importCsv: typeof enImportCsv;
  views: typeof enViews;
  feedback: typeof enFeedback;
  shortcuts: typeof enShortcuts;
  figures: typeof enFigures;
  changes: typeof enChanges;
  people: typeof enPeople;
}

/**
 * The source language: every other catalogue must have exactly its keys (checked by the types). The
 * later areas are in it once their code has loaded (see `LaterEnglish`).
 */
export const english = firstEnglish as typeof firstEnglish & LaterEnglish;

/** Adds a later area's English, from the module that shows it; test/i18n-areas.test.ts checks that each does. */
export function addEnglish<A extends keyof LaterEnglish>(area: A, messages: LaterEnglish[A]): void {
  (english as unknown as Record<string, unknown>)[area] = messages;
}

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
    case 'fr': {
      // The specification's own words in French come with the client's, so that a page is never half
      // in each (see app/spec-words.ts).
      const [french] = await Promise.all([import('./fr'), loadSpecWords()]);
      loaded.set('fr', french.french);
      return;
    }
    default:
      return exhaustiveSwitchError(locale);
  }
}
