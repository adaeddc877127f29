import { loadSpec, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { seed } from '../src/seed/seed-store';
import { openStore } from '../src/store/open-store';

// A bakery's orders (a domain of our own) whose two rules no generated order can meet at once: each one
// left out breaks both, and is one record left out, not two.
const BAKERY = `title: Crumb & Co
product: not shown
screens: not shown
states: not shown
errors: not shown
constants: not shown
roles: not shown
calls: not shown

entities:
  CakeOrder:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      tiers: { kind: integer }
      candles: { kind: integer }

validation:
  fields:
    CakeOrder.tiers: { required: true, min: 1, max: 5 }
    CakeOrder.candles: { required: true, min: 0, max: 90 }
  rules:
    - name: tall-enough
      entity: CakeOrder
      check: record.tiers > 100
      message: A cake has more than a hundred tiers.
      field: tiers
    - name: lit-enough
      entity: CakeOrder
      check: record.candles > 1000
      message: A cake has more than a thousand candles.
      field: candles
`;

function bakery(): Model {
  const loaded = loadSpec(BAKERY, { file: 'bakery.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

describe('the seed’s counts', () => {
  it('count records, not the rules they break: every order left out is said once, and none seeded is not a negative', async () => {
    const model = bakery();
    const store = await openStore({ model, url: 'sqlite::memory:' });
    try {
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      const lines: string[] = [];
      await seed(store, model, 6, (line) => lines.push(line));
      const stored = await store.list('CakeOrder', { filters: [], sort: [], limit: 50, withTotal: false });
      expect(stored.items).toEqual([]);
      expect(lines).toContain('  CakeOrder: seeded 0 records');
      // Each rule is said with the six orders that broke it.
      expect(lines).toContain(
        '  CakeOrder: left out 6 generated records that would break a rule: A cake has more than a hundred tiers.',
      );
      expect(lines).toContain(
        '  CakeOrder: left out 6 generated records that would break a rule: A cake has more than a thousand candles.',
      );
      expect(lines.join('\n')).not.toMatch(/seeded -\d/);
    } finally {
      await store.close();
    }
  });
});
