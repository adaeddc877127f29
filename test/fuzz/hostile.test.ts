// The hostile inputs of issue 14 kept as fixtures (test/fixtures/hostile/cases.json), each loaded in the
// fuzz pool: no throw, no hang past 2 s, no heap past 256 MB, and an error of the expected code at its
// line. Among them: a YAML alias that contains itself (check spun forever), 100,000 `*a` in a table cell
// (quadratic, never finished), a line of 5,000,000 `|` (1.9 GB), a 12 MB Markdown file (44 s and 4.75 GB),
// YAML nested 10,000 deep (a stack overflow reported as an internal error) and $refs out of the document.
import { readFileSync } from 'node:fs';
import { MAX_MARKDOWN_BYTES } from '@ninefold/model';
import { afterAll, describe, expect, it } from 'vitest';
import { type FuzzInput, FuzzPool } from './pool';

interface HostileCase {
  file?: string;
  name?: string;
  kind: FuzzInput['kind'];
  generate?: { prefix: string; unit: string; times: number; closing?: string; suffix: string };
  code: string;
  line?: number;
}

const folder = new URL('../fixtures/hostile/', import.meta.url);
const { cases } = JSON.parse(readFileSync(new URL('cases.json', folder), 'utf8')) as { cases: HostileCase[] };

function inputOf(item: HostileCase): FuzzInput {
  const file = item.file ?? item.name ?? 'hostile';
  const text = item.generate
    ? item.generate.prefix +
      item.generate.unit.repeat(item.generate.times) +
      (item.generate.closing ?? '').repeat(item.generate.times) +
      item.generate.suffix
    : readFileSync(new URL(file, folder), 'utf8');
  return { kind: item.kind, file, text };
}

describe('hostile inputs kept as fixtures', () => {
  const pool = new FuzzPool(2, { timeoutMs: 2_000, memoryMb: 256 });
  afterAll(() => pool.close());

  it('are all refused in time and within memory, each with its error at its line', async () => {
    const outcomes = await pool.run(cases.map(inputOf));
    for (const [index, item] of cases.entries()) {
      const outcome = outcomes[index];
      const name = item.file ?? item.name;
      expect(outcome?.kind, `${name}: ${JSON.stringify(outcome)}`).toBe('loaded');
      if (outcome?.kind !== 'loaded') continue;
      expect(outcome.ok, `${name} loaded`).toBe(false);
      const found = outcome.issues.find((issue) => issue.code === item.code && issue.severity === 'error');
      expect(found, `${name}: ${JSON.stringify(outcome.issues.slice(0, 3))}`).toBeDefined();
      expect(found?.line, name).toBeGreaterThan(0);
      if (item.line !== undefined) expect(found?.line, `${name}: ${found?.message}`).toBe(item.line);
    }
    expect(cases.length).toBeGreaterThanOrEqual(16);
  }, 60_000);

  // The limit is chosen so that whatever passes it loads within the heap the fuzz allows; time is not
  // asserted here (a shared machine is noisy), only that it finishes and stays within memory.
  it('the largest Markdown specification accepted loads whole within 256 MB', async () => {
    const shop = readFileSync(new URL('../../examples/shop.md', import.meta.url), 'utf8');
    const entities = shop.slice(shop.indexOf('### Order'), shop.indexOf('## 4.'));
    let body = '';
    for (let n = 0; ; n++) {
      // Each copy's names carry its number, so copies grow: the next one is measured before it is added.
      const copy = entities
        .replace(/### (\w+)/g, `### $1X${n}`)
        .replace(/(reference to|object) (\w+)/g, `$1 $2X${n}`);
      if (shop.length + body.length + copy.length > MAX_MARKDOWN_BYTES) break;
      body += copy;
    }
    const text = shop.replace('## 4.', `${body}## 4.`);
    expect(text.length).toBeLessThanOrEqual(MAX_MARKDOWN_BYTES);
    expect(text.length).toBeGreaterThan(MAX_MARKDOWN_BYTES * 0.9);
    const roomy = new FuzzPool(1, { timeoutMs: 30_000, memoryMb: 256 });
    try {
      const [outcome] = await roomy.run([{ kind: 'spec', file: 'largest.md', text }]);
      expect(outcome?.kind, JSON.stringify(outcome)).toBe('loaded');
      expect(outcome?.kind === 'loaded' && outcome.ok, JSON.stringify(outcome).slice(0, 500)).toBe(true);
    } finally {
      await roomy.close();
    }
  }, 60_000);
});
