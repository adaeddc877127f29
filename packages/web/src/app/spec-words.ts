import { type Model, translationsFor } from '@ninefold/model';

// The specification's own words in the person's language (point 1's translations). The code that
// translates a model comes with a language other than English, beside its catalogue (see `loadLocale`),
// so that neither the first load of an English client pays for it nor a French one shows English first.

type Translate = (model: Model, language: string) => Model;

let translate: Translate | undefined;

/** Loads the translating code once; later calls share the first. */
let loading: Promise<void> | undefined;
export function loadSpecWords(): Promise<void> {
  loading ??= import('./spec-words-code').then((module) => {
    translate = module.translateModel;
  });
  return loading;
}

/** Whether the specification has words in this language (the only case that needs the code). */
export function hasSpecWords(model: Model, language: string): boolean {
  return translationsFor(model, language) !== undefined;
}

/** The translating code, once loaded. */
export function specWordsTranslator(): Translate | undefined {
  return translate;
}
