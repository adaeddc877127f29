/** A part of a located string that came from one node of the source. */
export interface Piece {
  /** Range in the string. */
  start: number;
  end: number;
  /** text and code map character by character; raw is a verbatim slice; opaque maps to its start only. */
  kind: 'text' | 'code' | 'raw' | 'opaque';
  /** Range of the node in the source text. */
  from: number;
  to: number;
}

export interface TextRoot {
  value: string;
  pieces: Piece[];
  /** Source offset used when a character cannot be mapped (the enclosing node's start). */
  at: number;
}

/**
 * A string read from the Markdown, with the way back to the source for each character. Slicing and
 * trimming keep the mapping, so that a list element or an expression after `=` is located exactly.
 *
 * @example
 * ```ts
 * const text = new Text({ value: ' a, b ', pieces: [], at: 0 }, 0, 6).trim(); // 'a, b', from offset 1
 * listOf(text).map((t) => t.value); // ['a', 'b']
 * ```
 */
export class Text {
  constructor(
    readonly root: TextRoot,
    readonly start: number,
    readonly end: number,
  ) {}

  get value(): string {
    return this.root.value.slice(this.start, this.end);
  }

  get length(): number {
    return this.end - this.start;
  }

  slice(from: number, to: number = this.length): Text {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    return new Text(this.root, this.start + a, this.start + b);
  }

  trim(): Text {
    const v = this.root.value;
    let a = this.start;
    let b = this.end;
    while (a < b && isSpace(v.charCodeAt(a))) a++;
    while (b > a && isSpace(v.charCodeAt(b - 1))) b--;
    return new Text(this.root, a, b);
  }

  indexOf(needle: string, from = 0): number {
    return this.value.indexOf(needle, from);
  }
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0;
}

/**
 * Splits at `separator` outside parentheses and brackets (and, for expressions, outside quotes), so that
 * `draft (Draft, first), paid` is two values. Reads only the inline text of one cell or list item.
 */
export function splitTop(text: Text, separator: string, quotes = false): Text[] {
  const v = text.value;
  const parts: Text[] = [];
  let depth = 0;
  let quote = '';
  let last = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (quotes && (c === '"' || c === "'")) quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === separator && depth === 0) {
      parts.push(text.slice(last, i));
      last = i + 1;
    }
  }
  parts.push(text.slice(last));
  return parts;
}

/** `a, b, c` -> the trimmed, non-empty elements. */
export function listOf(text: Text): Text[] {
  return splitTop(text, ',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * Sets a key as an own property even when it is `__proto__`, which plain assignment would turn into a
 * prototype change (the item would vanish). The schema then sees the name and refuses it with a position.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
