// The loaders under hostile and careless input: 1,500 deterministic mutations of the examples and 300 of
// small OpenAPI documents from the corpus, each loaded in a pool of reused workers with 2 s and 256 MB per
// input. No input may throw, hang or blow up; every failure is an error with a position; every input broken
// by construction (a NUL, nesting past the limits, an alias cycle or bomb, a line or file too large, a row
// with the wrong cells, a blank line in a table, a deleted heading, a duplicate key, truncated JSON, a $ref
// out of the document) fails with such an error. Replaces the earlier 1,000 in-process mutations.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { ISSUE_CODES } from '@ninefold/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusDocuments } from '../../packages/openapi/test/support/corpus';
import { seededRandom } from '../seeded-random';
import { documentedSeverities } from '../support/documented-severities';
import { BREAKING_MUTATIONS, type Format, type Mutation, RANDOM_MUTATIONS } from './mutations';
import { type FuzzInput, type FuzzOutcome, FuzzPool } from './pool';

// The deadline catches a hang, not a slow input: the slowest takes about 0.6 s alone, and the suite runs
// two files at once beside browsers on two shared cores, where one took 2.07 s.
const LIMITS = { timeoutMs: 5_000, memoryMb: 256 };
const EXAMPLES = new URL('../../examples/', import.meta.url);
/** Mutations per example, 1,500 in all: the Markdown parser is the slowest, but the Markdown is most mutated. */
const RUNS: Record<string, number> = {
  'shop.md': 500,
  'shop.yaml': 450,
  'helpdesk.md': 350,
  'empty.md': 200,
};
const OPENAPI_RUNS = 300;
/** Corpus documents small enough to mutate many times: a hand-sized API. */
const SMALL_DOCUMENT_BYTES = 24 * 1024;

interface Case {
  input: FuzzInput;
  applied: string[];
  broken?: { codes: readonly string[] };
}

function formatOf(file: string): Format {
  if (file.endsWith('.md')) return 'markdown';
  if (file.endsWith('.json')) return 'json';
  return 'yaml';
}

/**
 * One to three random mutations; or a breaking one, alone on the intact text (then it must fail with one
 * of the codes it names) or after random ones (then it must fail, with a placed error, whatever the code).
 */
function mutate(
  text: string,
  format: Format,
  kind: FuzzInput['kind'],
  next: () => number,
): Omit<Case, 'input'> & { text: string } {
  const fits = (mutation: Mutation) => mutation.formats.includes(format) && (mutation.only ?? kind) === kind;
  const random = RANDOM_MUTATIONS.filter(fits);
  const breaking = BREAKING_MUTATIONS.filter(fits);
  const roll = next();
  let out = text;
  const applied: string[] = [];
  const steps = roll < 0.35 ? 0 : 1 + Math.floor(next() * 3);
  for (let step = 0; step < steps; step++) {
    const mutation = random[Math.floor(next() * random.length)] as Mutation;
    applied.push(mutation.name);
    out = mutation.apply(out, next, format).text;
  }
  if (roll < 0.35 || roll > 0.7) {
    const mutation = breaking[Math.floor(next() * breaking.length)] as Mutation;
    const result = mutation.apply(out, next, format);
    applied.push(mutation.name);
    if (!result.broken) return { text: result.text, applied };
    return { text: result.text, applied, broken: { codes: steps === 0 ? result.broken.codes : [] } };
  }
  return { text: out, applied };
}

function specCases(): Case[] {
  const cases: Case[] = [];
  for (const [name, runs] of Object.entries(RUNS)) {
    const original = readFileSync(new URL(name, EXAMPLES), 'utf8');
    const next = seededRandom(name.length * 7919 + runs);
    for (let run = 0; run < runs; run++) {
      const { text, ...rest } = mutate(original, formatOf(name), 'spec', next);
      cases.push({ input: { kind: 'spec', file: name, text }, ...rest });
    }
  }
  return cases;
}

function openApiCases(): Case[] {
  const small = corpusDocuments().filter((path) => statSync(path).size <= SMALL_DOCUMENT_BYTES);
  if (small.length === 0) return [];
  const next = seededRandom(300_1124);
  const cases: Case[] = [];
  for (let run = 0; run < OPENAPI_RUNS; run++) {
    const path = small[run % small.length] as string;
    const file = path.slice((CORPUS ?? '').length + 1);
    const { text, ...rest } = mutate(readFileSync(path, 'utf8'), formatOf(path), 'openapi', next);
    cases.push({ input: { kind: 'openapi', file, text }, ...rest });
  }
  return cases;
}

describe('fuzzing the loaders in a pool of workers with 2 s and 256 MB per input', () => {
  const pool = new FuzzPool(2, LIMITS);
  const codes = new Set<string>(ISSUE_CODES);
  const severities = documentedSeverities();
  let started = 0;
  beforeAll(() => {
    started = performance.now();
  });
  afterAll(async () => {
    await pool.close();
    console.info(`fuzz: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  });

  const check = (cases: Case[], outcomes: FuzzOutcome[]) => {
    const tally = {
      inputs: cases.length,
      broken: 0,
      failed: 0,
      slowest: 0,
      byMutation: new Map<string, number>(),
    };
    for (const [index, item] of cases.entries()) {
      const outcome = outcomes[index] as FuzzOutcome;
      const what = `${item.input.file} after ${item.applied.join(' + ')}`;
      expect(outcome.kind === 'loaded' ? 'loaded' : `${outcome.kind}: ${JSON.stringify(outcome)}`, what).toBe(
        'loaded',
      );
      if (outcome.kind !== 'loaded') continue;
      tally.slowest = Math.max(tally.slowest, outcome.ms);
      for (const issue of outcome.issues) {
        expect(codes.has(issue.code), `${what}: unknown code ${issue.code}`).toBe(true);
        expect(issue.message.length, what).toBeGreaterThan(0);
        expect(
          [...(severities.get(issue.code) ?? [])],
          `${what}: ${issue.code} as ${issue.severity}, not as the docs say`,
        ).toContain(issue.severity);
      }
      const errors = outcome.issues.filter((issue) => issue.severity === 'error');
      for (const error of errors)
        expect(error.line, `${what}: ${error.code} ${error.message} has no position`).toBeGreaterThan(0);
      if (!outcome.ok) {
        tally.failed++;
        expect(errors.length, `${what} failed without an error`).toBeGreaterThan(0);
      }
      if (item.broken) {
        tally.broken++;
        const last = item.applied.at(-1) ?? '';
        tally.byMutation.set(last, (tally.byMutation.get(last) ?? 0) + 1);
        expect(outcome.ok, `${what} is broken by construction but loaded`).toBe(false);
        if (item.broken.codes.length > 0)
          expect(
            errors.map((error) => error.code),
            `${what}: expected one of ${item.broken.codes.join(', ')}, got ${errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`,
          ).toEqual(expect.arrayContaining([expect.toBeOneOf([...item.broken.codes])]));
      }
    }
    return tally;
  };

  it('1,500 mutations of the examples: no throw, no hang, no blow-up, every failure placed', async () => {
    const cases = specCases();
    expect(cases).toHaveLength(1_500);
    const tally = check(cases, await pool.run(cases.map((item) => item.input)));
    console.info(
      `spec fuzz: ${JSON.stringify({ ...tally, byMutation: Object.fromEntries(tally.byMutation) })}`,
    );
    // Each breaking class was met, and the run broke a good share of its inputs.
    expect(tally.byMutation.size).toBeGreaterThanOrEqual(10);
    expect(tally.broken).toBeGreaterThan(500);
    // A hang is caught per input (LIMITS); this bounds the whole run. The same 1,500 loads took 214 s of
    // CPU in one process on a machine whose run timed out at 90 s twice (November 30), and 224 s with the
    // loaders of the day before: the machine, not the loaders, had slowed.
  }, 180_000);

  it.skipIf(CORPUS === undefined)(
    `300 mutations of small OpenAPI documents of the corpus${CORPUS === undefined ? ' — skipped: no corpus' : ''}`,
    async () => {
      const cases = openApiCases();
      expect(cases).toHaveLength(OPENAPI_RUNS);
      const tally = check(cases, await pool.run(cases.map((item) => item.input)));
      console.info(
        `OpenAPI fuzz: ${JSON.stringify({ ...tally, byMutation: Object.fromEntries(tally.byMutation) })}`,
      );
      expect(tally.byMutation.size).toBeGreaterThanOrEqual(6);
    },
    90_000,
  );
});

// Keeps the examples folder honest for this test: a new example is fuzzed, or this fails.
it('fuzzes every example', () => {
  const examples = readdirSync(EXAMPLES).filter((file) => /\.(md|ya?ml|json)$/.test(file));
  expect(examples.sort()).toEqual(Object.keys(RUNS).sort());
});
