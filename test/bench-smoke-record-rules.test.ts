// A smoke run of bench/record-rules.ts (2,000 tickets, 5 creates of each kind, nothing written, no time
// asserted), so that a change that breaks the benchmark fails here rather than when someone measures.
import { describe, expect, it } from 'vitest';
import { run } from '../bench/record-rules';
import { testDatabases } from '../packages/server/test/support/databases';

const databases = await testDatabases();
const dialects = databases
  .filter((database) => !database.skip)
  .map((database) => (database.postgres ? 'postgres' : 'sqlite'));

describe('bench/record-rules.ts', () => {
  it(`runs end to end on ${dialects.join(' and ')}`, async () => {
    const figures = await run({ rows: 2000, creates: 5, dialects, write: false, log: () => undefined });
    expect(figures.map((figure) => figure.dialect)).toEqual(dialects);
    for (const figure of figures) {
      expect(figure.create.withRule.samples).toBe(5);
      expect(figure.create.withoutRule.samples).toBe(5);
      // The customer of the SQL page has tickets, and the scan found the same ones (or it throws).
      expect(figure.list.total).toBeGreaterThan(0);
    }
  }, 120_000);
});
