import type { PathSegment } from '@ninefold/model';

/**
 * The offset in JSON `text` of the value at `path` (or of its key, with `key`), or of the deepest
 * enclosing value that exists. A single forward scan that skips what it does not need, so locating one
 * issue in GitHub's 13 MB document costs a few tens of milliseconds and nothing is kept in memory.
 */
export function locateJson(text: string, path: readonly PathSegment[], key = false): number {
  let at = skipSpace(text, 0);
  let keyAt = at;
  for (const segment of path) {
    const char = text[at];
    if (char === '{') {
      const found = findMember(text, at, String(segment));
      if (found === undefined) break;
      keyAt = found.key;
      at = found.value;
    } else if (char === '[' && typeof segment === 'number') {
      const found = findItem(text, at, segment);
      if (found === undefined) break;
      keyAt = found;
      at = found;
    } else break;
  }
  return key ? keyAt : at;
}

function findMember(text: string, open: number, name: string): { key: number; value: number } | undefined {
  let i = skipSpace(text, open + 1);
  while (i < text.length && text[i] === '"') {
    const keyStart = i;
    const keyEnd = skipString(text, i);
    const raw = text.slice(keyStart + 1, keyEnd - 1);
    const decoded = raw.includes('\\') ? safeDecode(text.slice(keyStart, keyEnd)) : raw;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') return undefined;
    i = skipSpace(text, i + 1);
    if (decoded === name) return { key: keyStart, value: i };
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ',') return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}

function findItem(text: string, open: number, index: number): number | undefined {
  let i = skipSpace(text, open + 1);
  for (let n = 0; i < text.length && text[i] !== ']'; n++) {
    if (n === index) return i;
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ',') return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}

/** The offset just past the value starting at `i`. */
function skipValue(text: string, i: number): number {
  const char = text[i];
  if (char === '"') return skipString(text, i);
  if (char !== '{' && char !== '[') {
    while (i < text.length && !',}] \t\r\n'.includes(text[i] as string)) i++;
    return i;
  }
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = skipString(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const next = text.indexOf('"', j);
    if (next < 0) return text.length;
    let backslashes = 0;
    for (let k = next - 1; text[k] === '\\'; k--) backslashes++;
    if (backslashes % 2 === 0) return next + 1;
    j = next;
  }
  return text.length;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
    i++;
  }
  return i;
}

function safeDecode(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** 1-based line and column of `offset`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
