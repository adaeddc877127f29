import { closest, distance } from 'fastest-levenshtein';

/**
 * The known name closest to a misspelt one, when it is close enough to be worth suggesting.
 *
 * @example
 * ```ts
 * suggest('createdAtt', ['createdAt', 'updatedAt']); // 'createdAt'
 * suggest('zzz', ['createdAt']); // undefined
 * ```
 */
export function suggest(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = name.toLowerCase();
  const caseOnly = known.find((candidate) => candidate.toLowerCase() === lower);
  if (caseOnly) return caseOnly;
  const best = closest(name, known as string[]);
  const limit = Math.max(1, Math.floor(Math.max(name.length, best.length) / 3));
  return distance(name, best) <= limit ? best : undefined;
}

/** `did you mean "x"?`, or undefined when nothing is close. */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  const best = suggest(name, known);
  return best === undefined ? undefined : `did you mean "${best}"?`;
}
