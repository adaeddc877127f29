import type { Nodes, RootContent } from 'mdast';
import type { Issue, IssueCode, PathSegment, Severity, SourcePosition } from '../issues';
import { type Piece, Text } from './located-text';

interface Place {
  at?: SourcePosition;
  text?: Text;
  key?: SourcePosition;
}

function pathKey(path: readonly PathSegment[]): string {
  return JSON.stringify(path.map(String));
}

/**
 * A Markdown source with the places of the values read from it and the issues found in it: the reader
 * records where each path's value (and key) came from, and `locate` finds them again, down to a character
 * of a string.
 *
 * @example
 * ```ts
 * const source = new LocatedSource('# Shop\n', 'shop.md');
 * source.record(['title'], source.position(2));
 * source.locate(['title', 'x']); // { file: 'shop.md', line: 1, column: 3 }: the nearest recorded parent
 * ```
 */
export class LocatedSource {
  readonly issues: Issue[] = [];
  private readonly places = new Map<string, Place>();
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly source: string,
    readonly file: string,
  ) {
    for (let i = 0; i < source.length; i++) {
      const c = source.charCodeAt(i);
      if (c === 10) this.lineStarts.push(i + 1);
      else if (c === 13 && source.charCodeAt(i + 1) !== 10) this.lineStarts.push(i + 1);
    }
  }

  // ---------------------------------------------------------------------------------------- positions

  position(offset: number): SourcePosition {
    const o = Math.max(0, Math.min(offset, this.source.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: o - (this.lineStarts[lo] ?? 0) + 1 };
  }

  private startOf(node: Nodes | undefined): number {
    return node?.position?.start.offset ?? 0;
  }

  private endOf(node: Nodes | undefined): number {
    return node?.position?.end.offset ?? this.startOf(node);
  }

  at(node: Nodes | undefined): SourcePosition {
    if (node?.position?.start.offset === undefined && node?.position) {
      return { file: this.file, line: node.position.start.line, column: node.position.start.column };
    }
    return this.position(this.startOf(node));
  }

  /** The source offset of character `offset` of a located string. */
  private offsetIn(text: Text, offset: number): number {
    const index = text.start + Math.max(0, Math.min(offset, text.length));
    const pieces = text.root.pieces;
    let piece: Piece | undefined;
    for (const p of pieces) {
      if (p.start <= index && (index < p.end || (index === p.end && p === pieces[pieces.length - 1]))) {
        piece = p;
        break;
      }
      if (p.start > index) {
        piece = p;
        break;
      }
    }
    if (!piece) return text.root.at;
    if (index < piece.start) return piece.from;
    const k = index - piece.start;
    switch (piece.kind) {
      case 'raw':
        return piece.from + k;
      case 'opaque':
        return piece.from;
      case 'text':
      case 'code':
        return this.mapInNode(piece, text.root.value.slice(piece.start, piece.end), k) ?? piece.from;
    }
  }

  /**
   * Walks the node's source and its value side by side up to character `k` of the value. Escapes (`\|`
   * in a table, `\*`) take two source characters for one; a code span's backticks and its stripped space
   * are skipped. Returns undefined when the two cannot be aligned (entities such as `&amp;`).
   */
  private mapInNode(piece: Piece, value: string, k: number): number | undefined {
    const src = this.source;
    let i = piece.from;
    let end = piece.to;
    if (piece.kind === 'code') {
      let ticks = 0;
      while (src[i + ticks] === '`') ticks++;
      i += ticks;
      end -= ticks;
      const inner = src.slice(i, end);
      const edge = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r';
      if (inner.length >= 2 && edge(inner[0]) && edge(inner[inner.length - 1]) && inner.trim() !== '') i++;
    }
    let afterNewline = false;
    let j = 0;
    while (j < k) {
      if (i >= end) return undefined;
      const c = value[j];
      const s = src[i];
      if (s === c || (piece.kind === 'code' && c === ' ' && (s === '\n' || s === '\r'))) {
        afterNewline = s === '\n' || s === '\r';
        i++;
        j++;
      } else if (s === '\\' && src[i + 1] === c) {
        afterNewline = false;
        i += 2;
        j++;
      } else if (afterNewline && (s === ' ' || s === '\t')) {
        i++;
      } else {
        return undefined;
      }
    }
    return i;
  }

  /** Where a located string starts: at the backtick when it starts with a code span. */
  textStart(text: Text): SourcePosition {
    const piece = text.root.pieces.find((p) => p.start === text.start);
    if (piece && (piece.kind === 'code' || piece.kind === 'opaque')) return this.position(piece.from);
    return this.position(this.offsetIn(text, 0));
  }

  // ---------------------------------------------------------------------------------------- places

  record(path: readonly PathSegment[], at: Text | SourcePosition | undefined, key?: SourcePosition): void {
    const place: Place = {};
    if (at instanceof Text) place.text = at;
    else if (at) place.at = at;
    if (key) place.key = key;
    this.places.set(pathKey(path), place);
  }

  /** A value named in the source (a row, a subsection): located at the name, its key too. */
  recordNamed(path: readonly PathSegment[], name: Text): void {
    this.record(path, name, this.textStart(name));
  }

  /** Gives a recorded place the position of its key (`Label:` in a properties list); no place, no key. */
  recordKey(path: readonly PathSegment[], key: Text): void {
    const place = this.places.get(pathKey(path));
    if (place) place.key = this.textStart(key);
  }

  /** Locates `to` where `from` is, when `from` is recorded. */
  copyPlace(from: readonly PathSegment[], to: readonly PathSegment[]): void {
    const place = this.places.get(pathKey(from));
    if (place) this.places.set(pathKey(to), place);
  }

  private placeAt(place: Place): SourcePosition | undefined {
    if (place.text) return this.textStart(place.text);
    return place.at ? { ...place.at } : undefined;
  }

  locate(path: readonly PathSegment[], options?: { key?: boolean }): SourcePosition | undefined {
    try {
      for (let n = path.length; n >= 0; n--) {
        const place = this.places.get(pathKey(path.slice(0, n)));
        if (!place) continue;
        if (options?.key && n === path.length && place.key) return { ...place.key };
        const at = this.placeAt(place);
        if (at) return at;
      }
    } catch {
      // A lookup must never fail the caller; fall through to the start of the file.
    }
    return { file: this.file, line: 1, column: 1 };
  }

  locateInString(path: readonly PathSegment[], offset: number): SourcePosition | undefined {
    try {
      const place = this.places.get(pathKey(path));
      const text = place?.text;
      if (text && Number.isFinite(offset) && offset >= 0 && offset <= text.length) {
        return this.position(this.offsetIn(text, offset));
      }
    } catch {
      // Fall back to the string's own position.
    }
    return this.locate(path);
  }

  // ---------------------------------------------------------------------------------------- issues

  issue(
    code: IssueCode,
    severity: Severity,
    message: string,
    path: readonly PathSegment[],
    at: SourcePosition | Text | undefined,
    hint?: string,
  ): void {
    const source = at instanceof Text ? this.textStart(at) : at;
    const issue: Issue = { code, severity, message, path: [...path] };
    if (source) issue.source = source;
    if (hint) issue.hint = hint;
    this.issues.push(issue);
  }

  // ---------------------------------------------------------------------------------------- text

  /** The text of an inline container, like mdast-util-to-string, with the mapping back to the source. */
  inline(node: Nodes): Text {
    const pieces: Piece[] = [];
    let value = '';
    const add = (text: string, kind: Piece['kind'], from: Nodes) => {
      const start = value.length;
      pieces.push({ start, end: start + text.length, kind, from: this.startOf(from), to: this.endOf(from) });
      value += text;
    };
    const stack: Nodes[] = [node];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      if (n.type === 'text' || n.type === 'inlineCode') {
        add(n.value, n.type === 'text' ? 'text' : 'code', n);
      } else if (n.type === 'break') {
        value += ' ';
      } else if ('value' in n && typeof n.value === 'string') {
        add(n.value, 'opaque', n);
      } else if ((n.type === 'image' || n.type === 'imageReference') && n.alt) {
        add(n.alt, 'opaque', n);
      } else if ('children' in n) {
        const children = n.children as Nodes[];
        for (let i = children.length - 1; i >= 0; i--) {
          const child = children[i];
          if (child) stack.push(child);
        }
      }
    }
    // A soft line break inside a value reads as a space (same length, so the mapping holds).
    value = value.replace(/\r\n?|\n/g, (m) => ' '.repeat(m.length));
    return new Text({ value, pieces, at: this.startOf(node) }, 0, value.length);
  }

  plain(node: Nodes): string {
    return this.inline(node).trim().value;
  }

  /** The original source of prose blocks, joined by a blank line, so that their formatting survives. */
  prose(blocks: readonly RootContent[]): Text {
    const pieces: Piece[] = [];
    let value = '';
    for (const block of blocks) {
      if (value !== '') value += '\n\n';
      const from = this.startOf(block);
      const to = this.endOf(block);
      pieces.push({ start: value.length, end: value.length + (to - from), kind: 'raw', from, to });
      value += this.source.slice(from, to);
    }
    return new Text({ value, pieces, at: this.startOf(blocks[0]) }, 0, value.length);
  }
}
