// What a free-text search of a list finds (point 7's `search`), said once for every store that answers
// one: the prototype API's databases and the client's in-memory preview.

/** At most this many words of a search are looked for; a longer text is a paste, not a search. */
const MAX_TERMS = 12;

/**
 * The words of a search text, as the databases' full-text indexes split them: runs of letters and
 * digits, in lower case. Each one is looked for as the start of a word ("lov" finds "Lovelace"), and a
 * record must hold all of them.
 *
 * @example
 * ```ts
 * searchTerms("  Ada  O'Brien "); // ['ada', 'o', 'brien']
 * ```
 */
export function searchTerms(text: string): string[] {
  return wordsOf(text).slice(0, MAX_TERMS);
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Whether a record's `fields` hold every term as the start of a word, as the prototype API's search
 * answers (the in-memory preview's search).
 *
 * @example
 * ```ts
 * matchesSearch({ name: 'Ada Lovelace' }, ['name'], searchTerms('lov ada')); // true
 * ```
 */
export function matchesSearch(
  record: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  terms: readonly string[],
): boolean {
  const words = new Set<string>();
  for (const field of fields) {
    const value = record[field];
    if (typeof value === 'string') for (const word of wordsOf(value)) words.add(word);
  }
  return terms.every((term) => [...words].some((word) => word.startsWith(term)));
}
