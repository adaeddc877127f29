// Numbering patterns of point 3 (`ORD-{seq:6}`): parsed once, shared by `check`, the prototype API and
// the seed, so that a number is formatted the same way wherever it is made.

export interface NumberingPattern {
  /** The text before and after the counter. */
  prefix: string;
  suffix: string;
  /** Zero-padded to this many digits (0: as it is). */
  width: number;
}

export type NumberingResult = { ok: true; pattern: NumberingPattern } | { ok: false; message: string };

const PLACEHOLDER = /\{([^{}]*)\}/g;
const MAX_WIDTH = 15;

/**
 * Reads a numbering pattern: text with one `{seq}` or `{seq:N}` (padded to N digits, at most 15).
 *
 * @example
 * ```ts
 * parseNumbering('ORD-{seq:6}'); // { ok: true, pattern: { prefix: 'ORD-', suffix: '', width: 6 } }
 * formatNumber({ prefix: 'ORD-', suffix: '', width: 6 }, 123); // 'ORD-000123'
 * ```
 */
export function parseNumbering(text: string): NumberingResult {
  if (typeof text !== 'string' || text.trim() === '') {
    return { ok: false, message: 'A numbering pattern is text with {seq} in it, such as ORD-{seq:6}' };
  }
  const placeholders = [...text.matchAll(PLACEHOLDER)];
  const unknown = placeholders.find((match) => !/^seq(:\d+)?$/.test(match[1] ?? ''));
  if (unknown) {
    return {
      ok: false,
      message: `"{${unknown[1]}}" is not known in a numbering pattern; use {seq} or {seq:6} (six digits)`,
    };
  }
  if (placeholders.length !== 1) {
    return {
      ok: false,
      message:
        placeholders.length === 0
          ? `"${text}" has no {seq}: every record would get the same number`
          : `"${text}" has {seq} more than once`,
    };
  }
  const match = placeholders[0] as RegExpMatchArray;
  const width = Number((match[1] ?? '').split(':')[1] ?? 0);
  if (width > MAX_WIDTH) {
    return { ok: false, message: `{seq:${width}} pads to more than ${MAX_WIDTH} digits` };
  }
  if (/[{}]/.test(text.replace(match[0], ''))) {
    return { ok: false, message: `"${text}" has a brace outside {seq}` };
  }
  const at = match.index ?? 0;
  return {
    ok: true,
    pattern: { prefix: text.slice(0, at), suffix: text.slice(at + match[0].length), width },
  };
}

export function formatNumber(pattern: NumberingPattern, value: number): string {
  return `${pattern.prefix}${String(value).padStart(pattern.width, '0')}${pattern.suffix}`;
}

/**
 * The numbered fields of an entity with their parsed patterns. A pattern that does not read is left
 * out (`check` refuses it): a model that skipped the check gets no numbers rather than wrong ones.
 *
 * @example
 * ```ts
 * numberedFields(order); // [{ field: 'number', pattern: { prefix: 'ORD-', width: 6, suffix: '' } }]
 * ```
 */
export function numberedFields(entity: {
  fields: ReadonlyArray<{ name: string; numbering?: string }>;
}): Array<{ field: string; pattern: NumberingPattern }> {
  const found: Array<{ field: string; pattern: NumberingPattern }> = [];
  for (const field of entity.fields) {
    if (field.numbering === undefined) continue;
    const parsed = parseNumbering(field.numbering);
    if (parsed.ok) found.push({ field: field.name, pattern: parsed.pattern });
  }
  return found;
}
