import type { Model } from '../model';

/**
 * The specification's words in a language (point 1's translations): an exact tag first (`fr-CA`), then
 * its base language (`fr`); undefined when it has none. Apart from translate.ts so that a client's first
 * load can ask whether it has words to translate without the code that translates them.
 */
export function translationsFor(model: Model, language: string): Record<string, string> | undefined {
  const translations = model.product.shown ? model.product.translations : undefined;
  if (!translations) return undefined;
  return translations[language] ?? translations[language.split('-')[0] ?? ''];
}
