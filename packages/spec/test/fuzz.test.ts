import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random';
import { ISSUE_CODES } from '../src/issues';
import { loadSpec } from '../src/load';

const example = (name: string) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');

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
  '\u0000',
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
];

type Mutation = (text: string, next: () => number) => string;
const pick = <T>(items: readonly T[], next: () => number): T => items[Math.floor(next() * items.length)] as T;

const MUTATIONS: Record<string, Mutation> = {
  deleteLine: (text, next) => {
    const lines = text.split('\n');
    lines.splice(Math.floor(next() * lines.length), 1);
    return lines.join('\n');
  },
  duplicateLine: (text, next) => {
    const lines = text.split('\n');
    const at = Math.floor(next() * lines.length);
    lines.splice(at, 0, lines[at] ?? '');
    return lines.join('\n');
  },
  swapLines: (text, next) => {
    const lines = text.split('\n');
    const a = Math.floor(next() * lines.length);
    const b = Math.floor(next() * lines.length);
    [lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
    return lines.join('\n');
  },
  truncate: (text, next) => text.slice(0, Math.floor(next() * text.length)),
  insertNoise: (text, next) => {
    const at = Math.floor(next() * text.length);
    return text.slice(0, at) + pick(NOISE, next) + text.slice(at);
  },
  deleteSpan: (text, next) => {
    const at = Math.floor(next() * text.length);
    return text.slice(0, at) + text.slice(at + Math.floor(next() * 40));
  },
  replaceWord: (text, next) => {
    const words = text.match(/[A-Za-z_]+/g) ?? ['x'];
    const target = pick(words, next);
    return text.replace(target, pick(words, next));
  },
  reindent: (text, next) => {
    const lines = text.split('\n');
    const at = Math.floor(next() * lines.length);
    lines[at] = next() < 0.5 ? `  ${lines[at]}` : (lines[at] ?? '').trimStart();
    return lines.join('\n');
  },
};

/** 1,000 mutated documents in all; the Markdown parser is the slowest part, so it gets fewer. */
const RUNS: Record<string, number> = { 'shop.yaml': 500, 'shop.md': 300, 'empty.md': 200 };

describe('1,000 random mutations of the examples', () => {
  const codes = new Set<string>(ISSUE_CODES);
  for (const name of ['shop.yaml', 'shop.md', 'empty.md']) {
    it(`never throw, and every failure is explained with a position: ${name}`, () => {
      const original = example(name);
      const next = seededRandom(name.length * 7919);
      const names = Object.keys(MUTATIONS);
      let failures = 0;
      let explained = 0;
      const runs = RUNS[name] ?? 0;
      for (let run = 0; run < runs; run++) {
        let text = original;
        const steps = 1 + Math.floor(next() * 3);
        const applied: string[] = [];
        for (let step = 0; step < steps; step++) {
          const mutation = pick(names, next);
          applied.push(mutation);
          text = MUTATIONS[mutation]?.(text, next) ?? text;
        }
        const result = loadSpec(text, { file: name });
        if (result.issues.length > 0) explained++;
        for (const issue of result.issues) {
          expect(codes.has(issue.code), `${applied.join('+')}: unknown code ${issue.code}`).toBe(true);
          expect(typeof issue.message, applied.join('+')).toBe('string');
          expect(issue.message.length).toBeGreaterThan(0);
        }
        if (!result.ok) {
          failures++;
          const errors = result.issues.filter((issue) => issue.severity === 'error');
          expect(errors.length, `${applied.join('+')} failed without an error issue`).toBeGreaterThan(0);
          for (const issue of errors)
            expect(issue.source?.line, `${applied.join('+')}: ${issue.message}`).toBeGreaterThan(0);
        } else {
          expect(result.model, applied.join('+')).toBeDefined();
        }
      }
      // The mutations are meant to break things, so many runs must have been reported (as errors, or as
      // warnings such as a section gone missing); for the rich examples, many as errors.
      expect(explained).toBeGreaterThan(runs / 2);
      if (name !== 'empty.md') expect(failures).toBeGreaterThan(runs / 4);
    }, 120_000);
  }
});
