import type { Faker } from '@faker-js/faker';

/**
 * A string that probably matches `pattern`, from faker's `helpers.fromRegExp`. That function knows
 * character classes, `.` and the quantifiers `?`, `*`, `+`, `{n}` and `{n,m}`, but no anchors,
 * escapes, open ranges (`{n,}`) or alternation, so the pattern is rewritten into that subset first:
 * one alternative is picked, anchors are dropped, `\d`, `\w` and `\s` become classes and escaped
 * characters become literal ones. Groups stay unsupported; the caller checks every result against the
 * real pattern and drops what does not match.
 */
export function samplePattern(faker: Faker, pattern: RegExp): string | undefined {
  const alternatives = splitAlternatives(pattern.source);
  const chosen = alternatives.length > 1 ? faker.helpers.arrayElement(alternatives) : pattern.source;
  try {
    return faker.helpers.fromRegExp(rewrite(chosen));
  } catch {
    return undefined;
  }
}

const OUTSIDE_CLASS: Record<string, string> = {
  d: '[0-9]',
  D: '[a-z]',
  w: '[a-zA-Z0-9_]',
  W: '[-]',
  s: '[ ]',
  S: '[a-z]',
  b: '',
  B: '',
};

const INSIDE_CLASS: Record<string, string> = { d: '0-9', w: 'a-zA-Z0-9_', s: ' ' };

function rewrite(source: string): string {
  let text = source.startsWith('^') ? source.slice(1) : source;
  if (text.endsWith('$') && !text.endsWith('\\$')) text = text.slice(0, -1);
  let out = '';
  let inClass = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '\\' && i + 1 < text.length) {
      const next = text[i + 1] as string;
      i++;
      if (inClass) out += INSIDE_CLASS[next] ?? (/[\]\\^-]/.test(next) ? `\\${next}` : next);
      else out += OUTSIDE_CLASS[next] ?? `[${next}]`;
      continue;
    }
    if (char === '[' && !inClass) inClass = true;
    else if (char === ']' && inClass) inClass = false;
    else if (char === '{' && !inClass) {
      const open = /^\{(\d+),\}/.exec(text.slice(i));
      if (open) {
        const least = Number(open[1]);
        out += `{${least},${least + 5}}`;
        i += open[0].length - 1;
        continue;
      }
    }
    out += char;
  }
  return out;
}

/** Splits `a|b` at the top level only (not inside classes or groups). */
function splitAlternatives(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}
