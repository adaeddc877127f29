import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec } from '@ninefold/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open-store';
import type { ListQuery, Store } from '../src/store/store';

const result = loadSpec(
  `title: T
entities:
  Note:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      tag: { kind: text }
`,
  { file: 't.yaml' },
);
const model = result.model;
if (!model) throw new Error('model');

const byTag = (tag: string): ListQuery => ({
  filters: [{ field: 'tag', op: 'eq', value: tag }],
  sort: [],
  limit: 1,
  withTotal: true,
});
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function open(file: string) {
  const store = await openStore({ model: model as NonNullable<typeof model>, url: `sqlite:${file}` });
  stores.push(store);
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  return store;
}

describe('remembered list totals on SQLite', () => {
  it('stay exact across the store’s own writes, transactions and another connection’s writes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ninefold-totals-')), 'notes.db');
    const a = await open(file);
    const b = await open(file);
    for (let i = 0; i < 3; i++) await a.create('Note', { tag: 'x' });
    expect((await a.list('Note', byTag('x'))).total).toBe(3);
    expect((await a.list('Note', byTag('x'))).total).toBe(3);

    await a.create('Note', { tag: 'x' });
    expect((await a.list('Note', byTag('x'))).total).toBe(4);

    await a.update('Note', 1, { tag: 'y' });
    expect((await a.list('Note', byTag('x'))).total).toBe(3);
    expect((await a.list('Note', byTag('y'))).total).toBe(1);

    await a.transaction(async (tx) => {
      await tx.create('Note', { tag: 'x' });
    });
    expect((await a.list('Note', byTag('x'))).total).toBe(4);

    // Regression guard for a remembered total going stale: another connection (another process, in
    // practice) writes to the same file.
    await b.create('Note', { tag: 'x' });
    await b.delete('Note', 2);
    expect((await a.list('Note', byTag('x'))).total).toBe(4);

    await a.delete('Note', 3);
    expect((await a.list('Note', byTag('x'))).total).toBe(3);
  });
});
