/**
 * Classes of mutation for the loaders' fuzz test. Each takes a text and a seeded random stream and
 * answers the mutated text, and whether it is broken by construction: then loading it must fail with an
 * error that has a position (and, where `codes` is given, one of those codes). A class that finds nothing
 * to change in a text answers it unchanged and not broken.
 */
export type Format = 'markdown' | 'yaml' | 'json';

export interface Mutated {
  text: string;
  broken?: { codes: readonly string[] };
}

export interface Mutation {
  name: string;
  formats: readonly Format[];
  /** Only for one kind of input: a `$ref` means something in an OpenAPI document, not in a specification. */
  only?: 'spec' | 'openapi';
  apply(text: string, next: () => number, format: Format): Mutated;
}

const pick = <T>(items: readonly T[], next: () => number): T => items[Math.floor(next() * items.length)] as T;
const at = (text: string, next: () => number) => Math.floor(next() * (text.length + 1));
const lines = (text: string) => text.split('\n');
/** A mutation that changes the text's lines in place. */
const onLines =
  (change: (all: string[], next: () => number) => void) =>
  (text: string, next: () => number): Mutated => {
    const all = lines(text);
    change(all, next);
    return { text: all.join('\n') };
  };
const ALL: readonly Format[] = ['markdown', 'yaml', 'json'];

/** Appends keys at the top level of a YAML text, at its indentation (some documents indent everything). */
function appendYaml(text: string, added: string): string {
  const indent = /^( *)[^\s#-]/m.exec(text)?.[1] ?? '';
  const body = added
    .split('\n')
    .map((line) => (line === '' ? line : indent + line))
    .join('\n');
  return `${text}\n${body}\n`;
}

/** Characters that break parsers in different ways: structure, escapes, aliases, controls, astral planes. */
const NOISE = [
  '|',
  ':',
  '- ',
  '[',
  ']',
  '{',
  '}',
  '#',
  '##',
  '`',
  '"',
  "'",
  '\t',
  '\\',
  '*',
  '&a',
  '*a',
  '!!',
  '%',
  '\uFFFF',
  '𝕏',
  '\n',
  '  ',
  '0',
  '-1',
  '1e999',
  'null',
  '~',
  'not shown',
  '<script>',
  '\u202E',
  '\u0007',
  '\uFEFF',
  '\r',
  '$ref',
  '#/',
  '../',
];

/** Mutations that may or may not break the text: shuffles, cuts and noise. */
export const RANDOM_MUTATIONS: readonly Mutation[] = [
  {
    name: 'delete a line',
    formats: ALL,
    apply: onLines((all, next) => all.splice(Math.floor(next() * all.length), 1)),
  },
  {
    name: 'duplicate a line',
    formats: ALL,
    apply: onLines((all, next) => {
      const i = Math.floor(next() * all.length);
      all.splice(i, 0, all[i] ?? '');
    }),
  },
  {
    name: 'swap two lines',
    formats: ALL,
    apply: onLines((all, next) => {
      const a = Math.floor(next() * all.length);
      const b = Math.floor(next() * all.length);
      [all[a], all[b]] = [all[b] ?? '', all[a] ?? ''];
    }),
  },
  { name: 'truncate', formats: ALL, apply: (text, next) => ({ text: text.slice(0, at(text, next)) }) },
  {
    name: 'insert noise',
    formats: ALL,
    apply: (text, next) => {
      const i = at(text, next);
      return { text: text.slice(0, i) + pick(NOISE, next) + text.slice(i) };
    },
  },
  {
    name: 'delete a span',
    formats: ALL,
    apply: (text, next) => {
      const i = at(text, next);
      return { text: text.slice(0, i) + text.slice(i + Math.floor(next() * 40)) };
    },
  },
  {
    name: 'replace a word with another',
    formats: ALL,
    apply: (text, next) => {
      const words = text.match(/[A-Za-z_]+/g) ?? ['x'];
      return { text: text.replace(pick(words, next), pick(words, next)) };
    },
  },
  {
    name: 'reindent a line',
    formats: ALL,
    apply: onLines((all, next) => {
      const i = Math.floor(next() * all.length);
      all[i] = next() < 0.5 ? `  ${all[i]}` : (all[i] ?? '').trimStart();
    }),
  },
  {
    name: 'a huge cell of emphasis marks, under the line limit',
    formats: ['markdown'],
    apply: (text, next) => {
      const all = lines(text);
      const rows = all.map((line, i) => [line, i] as const).filter(([line]) => /^\|.*\|$/.test(line));
      if (rows.length === 0) return { text };
      const [row, i] = pick(rows, next);
      all[i] = row.replace(/\|\s*$/, `${pick(['*a', '[a]', '_a', '`a'], next).repeat(2_000)} |`);
      return { text: all.join('\n') };
    },
  },
  {
    name: 'controls and bidirectional marks',
    formats: ALL,
    apply: (text, next) => {
      let out = text;
      for (let n = 0; n < 5; n++) {
        const i = at(out, next);
        out =
          out.slice(0, i) +
          pick(['\u202E', '\u2066', '\u0007', '\u001b[31m', '\uFEFF', '\u200F'], next) +
          out.slice(i);
      }
      return { text: out };
    },
  },
];

/** Mutations after which the text is broken by construction: loading it must fail, at a position. */
export const BREAKING_MUTATIONS: readonly Mutation[] = [
  {
    name: 'a NUL byte',
    formats: ALL,
    apply: (text, next) => {
      const i = Math.min(at(text, next), 60_000);
      return {
        text: `${text.slice(0, i)}\u0000${text.slice(i)}`,
        broken: { codes: ['binary-file', 'syntax'] },
      };
    },
  },
  {
    name: 'nesting far too deep',
    formats: ALL,
    apply: (text, next, format) => {
      const depth = 300 + Math.floor(next() * 5_000);
      switch (format) {
        case 'markdown':
          // Under the line limit, so that the nesting is what is refused.
          return { text: `${text}\n${'> '.repeat(depth % 4_000)}x\n`, broken: { codes: ['too-deep'] } };
        case 'yaml':
          return {
            text: appendYaml(text, `x-deep: ${'['.repeat(depth)}${']'.repeat(depth)}`),
            broken: { codes: ['too-deep'] },
          };
        case 'json': {
          const open = text.indexOf('{');
          if (open < 0) return { text };
          const deep = `"x-deep": ${'['.repeat(depth)}${']'.repeat(depth)},`;
          return {
            text: text.slice(0, open + 1) + deep + text.slice(open + 1),
            broken: { codes: ['too-deep'] },
          };
        }
      }
    },
  },
  {
    name: 'an alias inside the value it names',
    formats: ['yaml'],
    apply: (text, next) => {
      const shape = pick(['[*c]', '{x: *c}', '[1, [2, *c]]'], next);
      return { text: appendYaml(text, `x-cycle: &c ${shape}`), broken: { codes: ['cycle'] } };
    },
  },
  {
    name: 'an alias bomb',
    formats: ['yaml'],
    apply: (text) => {
      const levels = ['x-a: &a [x, x, x, x, x, x, x, x, x, x]'];
      for (let n = 1; n < 9; n++) {
        const name = String.fromCharCode(97 + n);
        const previous = String.fromCharCode(96 + n);
        levels.push(`x-${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(', ')}]`);
      }
      return { text: appendYaml(text, levels.join('\n')), broken: { codes: ['syntax'] } };
    },
  },
  {
    name: 'a key given twice',
    formats: ['yaml'],
    apply: (text) => {
      const first = lines(text).find((line) => /^[A-Za-z$][\w$-]*:/.test(line));
      if (!first) return { text };
      return { text: `${text}\n${first}\n`, broken: { codes: ['duplicate-key'] } };
    },
  },
  {
    name: 'a line far too long',
    formats: ['markdown'],
    apply: (text, next) => {
      const unit = pick(['|', '*a', '[a]', 'x'], next);
      const all = lines(text);
      all.splice(Math.floor(next() * all.length), 0, unit.repeat(Math.ceil(20_000 / unit.length)));
      return { text: all.join('\n'), broken: { codes: ['too-large'] } };
    },
  },
  {
    name: 'a file far too large',
    formats: ['markdown'],
    apply: (text) => ({
      text: text.repeat(Math.ceil((600 * 1024) / Math.max(1, text.length))),
      broken: { codes: ['too-large'] },
    }),
  },
  {
    name: 'a table row with a cell too many or too few',
    formats: ['markdown'],
    apply: (text, next) => {
      const all = lines(text);
      const rows = all
        .map((_, i) => i)
        // A body row: a table line that is not the separator, under another table line.
        .filter(
          (i) =>
            /^\|.*\|$/.test(all[i - 1] ?? '') &&
            /^\|.*\|$/.test(all[i] ?? '') &&
            !/^\|[\s:|-]+\|$/.test(all[i] ?? ''),
        );
      if (rows.length === 0) return { text };
      const i = pick(rows, next);
      const row = all[i] ?? '';
      if (next() < 0.5) all[i] = `${row} extra |`;
      else {
        const cells = row.split('|');
        if (cells.length <= 3) return { text };
        all[i] = [...cells.slice(0, -2), ''].join('|');
      }
      return { text: all.join('\n'), broken: { codes: ['cell-count'] } };
    },
  },
  {
    name: 'a blank line inside a table',
    formats: ['markdown'],
    apply: (text, next) => {
      const all = lines(text);
      const rows = all
        .map((_, i) => i)
        .filter(
          (i) =>
            /^\|.*\|$/.test(all[i] ?? '') &&
            /^\|.*\|$/.test(all[i - 1] ?? '') &&
            /^\|.*\|$/.test(all[i - 2] ?? '') &&
            !/^\|[\s:|-]+\|$/.test(all[i - 1] ?? ''),
        );
      if (rows.length === 0) return { text };
      all.splice(pick(rows, next), 0, '');
      return { text: all.join('\n'), broken: { codes: ['broken-table'] } };
    },
  },
  {
    name: 'a section heading deleted',
    formats: ['markdown'],
    apply: (text, next) => {
      const all = lines(text);
      const headings = all.map((_, i) => i).filter((i) => /^## [1-9]\./.test(all[i] ?? ''));
      if (headings.length === 0) return { text };
      all.splice(pick(headings, next), 1);
      // The section's content joins the one before, so what is reported depends on the section: its point
      // missing, or its tables and headings misplaced there. Only the failure, at a position, is certain.
      return { text: all.join('\n'), broken: { codes: [] } };
    },
  },
  {
    name: 'truncated JSON',
    formats: ['json'],
    apply: (text, next) => {
      const end = text.trimEnd().length;
      if (end < 4) return { text };
      return { text: text.slice(0, 1 + Math.floor(next() * (end - 2))), broken: { codes: ['syntax'] } };
    },
  },
  {
    name: 'a $ref that leaves the document',
    formats: ['yaml', 'json'],
    only: 'openapi',
    apply: (text, next, format) => {
      const target = pick(
        [
          '//evil.example/x.yaml',
          'http://127.0.0.1:9/x.json',
          'file:///etc/passwd',
          '/etc/passwd',
          '../../outside.yaml#/X',
        ],
        next,
      );
      if (format === 'yaml')
        return {
          text: appendYaml(text, `x-leak:\n  $ref: '${target}'`),
          broken: { codes: ['refused-reference'] },
        };
      const open = text.indexOf('{');
      if (open < 0) return { text };
      const leak = `"x-leak": {"$ref": ${JSON.stringify(target)}},`;
      return {
        text: text.slice(0, open + 1) + leak + text.slice(open + 1),
        broken: { codes: ['refused-reference'] },
      };
    },
  },
];
