// CHECK constraints said in point 5's words where CEL can say them: a bound on one column, a list of
// values, a comparison of two columns, a length. Anything else is kept verbatim in the report.

export type CheckMeaning =
  | { kind: 'bound'; column: string; bound: 'min' | 'max'; value: number; strict: boolean }
  | { kind: 'values'; column: string; values: string[] }
  | { kind: 'length'; column: string; bound: 'min' | 'max'; value: number }
  | { kind: 'rule'; columns: string[]; cel: string }
  | { kind: 'untranslated' };

const IDENT = '"?([A-Za-z_][A-Za-z0-9_]*)"?';
const NUMBER = '(-?\\d+(?:\\.\\d+)?)';
const OPS = ['>=', '<=', '<>', '!=', '>', '<', '='] as const;

/**
 * What a CHECK says, from the forms PostgreSQL (`((price >= (0)::numeric))`, `(status = ANY
 * (ARRAY['draft'::text, 'paid'::text]))`) and SQLite (`price >= 0`, `status IN ('draft', 'paid')`) write.
 *
 * @example
 * ```ts
 * checkMeaning('((price >= (0)::numeric))', ['price']); // { kind: 'bound', column: 'price', bound: 'min', value: 0, strict: false }
 * checkMeaning('(starts_on <= ends_on)', ['starts_on', 'ends_on']); // { kind: 'rule', cel: 'record.starts_on <= record.ends_on', ... }
 * ```
 */
export function checkMeaning(expression: string, columns: readonly string[]): CheckMeaning {
  const text = simplify(expression);
  const known = new Set(columns);

  const values =
    new RegExp(`^${IDENT}\\s+IN\\s*\\((.*)\\)$`, 'i').exec(text) ??
    new RegExp(`^${IDENT}\\s*=\\s*ANY\\s*\\(\\s*ARRAY\\s*\\[(.*)\\]\\s*\\)$`, 'i').exec(text);
  if (values?.[1] && known.has(values[1])) {
    const list = [...(values[2] ?? '').matchAll(/'((?:[^']|'')*)'/g)].map((m) =>
      (m[1] ?? '').replaceAll("''", "'"),
    );
    if (list.length > 0) return { kind: 'values', column: values[1], values: list };
  }

  const length = new RegExp(
    `^(?:char_length|length|character_length)\\s*\\(\\s*${IDENT}\\s*\\)\\s*(<=|<|>=|>)\\s*${NUMBER}$`,
    'i',
  ).exec(text);
  if (length?.[1] && known.has(length[1])) {
    const value = Number(length[3]);
    const op = length[2] as string;
    return op.startsWith('<')
      ? { kind: 'length', column: length[1], bound: 'max', value: op === '<' ? value - 1 : value }
      : { kind: 'length', column: length[1], bound: 'min', value: op === '>' ? value + 1 : value };
  }

  for (const op of OPS) {
    const bound = new RegExp(`^${IDENT}\\s*${escapeRegExp(op)}\\s*${NUMBER}$`).exec(text);
    if (bound?.[1] && known.has(bound[1]) && (op === '>=' || op === '<=' || op === '>' || op === '<')) {
      return {
        kind: 'bound',
        column: bound[1],
        bound: op.startsWith('>') ? 'min' : 'max',
        value: Number(bound[2]),
        strict: op.length === 1,
      };
    }
    const pair = new RegExp(`^${IDENT}\\s*${escapeRegExp(op)}\\s*${IDENT}$`).exec(text);
    if (pair?.[1] && pair[2] && known.has(pair[1]) && known.has(pair[2])) {
      const cel = op === '=' ? '==' : op === '<>' ? '!=' : op;
      return { kind: 'rule', columns: [pair[1], pair[2]], cel: `record.${pair[1]} ${cel} record.${pair[2]}` };
    }
  }
  return { kind: 'untranslated' };
}

/** Without the outer parentheses and the casts a database adds (`(0)::numeric` is `0`). */
function simplify(expression: string): string {
  let text = expression.trim().replace(/::[a-z ]+(?:\[\])?/gi, '');
  text = text.replace(/\((-?\d+(?:\.\d+)?)\)/g, '$1');
  while (text.startsWith('(') && text.endsWith(')') && balanced(text.slice(1, -1)))
    text = text.slice(1, -1).trim();
  return text;
}

/**
 * A CHECK's condition as a person reads it in a refusal: without the casts, and without the parentheses
 * PostgreSQL puts around each value and column.
 *
 * @example
 * ```ts
 * readableCondition("((POSITION(('@'::text) IN (email)) > 1))"); // "POSITION('@' IN email) > 1"
 * ```
 */
export function readableCondition(expression: string): string {
  let text = simplify(expression);
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(
      /\(\s*('(?:[^']|'')*'|"[^"]+"|[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?)\s*\)/g,
      (_, token: string, at: number, all: string) =>
        // A function's own parentheses stay: `lower(name)`.
        /[A-Za-z0-9_]$/.test(all.slice(0, at)) ? `(${token})` : token,
    );
  }
  return text;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
