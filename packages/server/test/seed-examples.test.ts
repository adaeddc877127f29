import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSpec } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { provisionUsers } from '../src/auth/provision';
import { openPrototypeStore, seedDemoPeople } from '../src/serve';

// Every specification the repository holds, seeded as `--seed` seeds it: each entity gets records, every
// record meets the rules of point 5 (the seed says so of any that does not), and every count is true.
const ROOT = resolve(import.meta.dirname, '../../..');
const SPECS = [
  ...readdirSync(resolve(ROOT, 'examples'))
    .filter((name) => /\.(md|ya?ml)$/.test(name))
    .map((name) => `examples/${name}`),
  ...readdirSync(resolve(ROOT, 'e2e/fixtures'))
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => `e2e/fixtures/${name}`),
  // The domains of the tests, each written for a rule or a permission of its own.
  ...[
    'packages/model/test/fixtures/network-inventory.yaml',
    'packages/server/test/fixtures/tool-library.yaml',
    'packages/server/test/fixtures/garden.yaml',
    'packages/server/test/fixtures/seed-bank.yaml',
    'packages/server/test/fixtures/moorings.yaml',
    'packages/server/test/fixtures/clinic.yaml',
    'packages/web/test/fixtures/village-hall.md',
    'packages/web/test/fixtures/boat-hire.yaml',
    'test/fixtures/csv/rowing-club.yaml',
  ],
];

describe('seeding every specification the repository holds', () => {
  it.each(SPECS)('%s: records of every entity, none breaking a rule, counted truly', async (file) => {
    const loaded = loadSpec(readFileSync(resolve(ROOT, file), 'utf8'), { file });
    if (!loaded.model) throw new Error(`${file} did not load`);
    const model = loaded.model;
    const lines: string[] = [];
    const opened = await openPrototypeStore({
      model,
      url: 'sqlite::memory:',
      seed: 12,
      log: (line) => lines.push(line),
    });
    if (!opened.ok) throw new Error(opened.message);
    const { store } = opened;
    try {
      const users = await provisionUsers(store, model, { users: [], demo: true });
      if (!users.ok) throw new Error(users.message);
      await seedDemoPeople(store, model, users);
      expect(
        lines.filter((line) => line.includes('could not meet')),
        file,
      ).toEqual([]);
      for (const entity of model.entities.shown
        ? model.entities.items.filter((item) => !item.embedded)
        : []) {
        const stored = await store.list(entity.name, { filters: [], sort: [], limit: 100, withTotal: false });
        const said = lines.find((line) => line.startsWith(`  ${entity.name}: seeded `));
        expect(said, `${file}: ${entity.name}`).toBe(
          `  ${entity.name}: seeded ${stored.items.length} records`,
        );
        expect(stored.items.length, `${file}: ${entity.name}`).toBeGreaterThan(0);
      }
    } finally {
      await store.close();
    }
  });
});

describe('the README’s first tour, on the demo `npm start` seeds', () => {
  it('has Ted Metz, whose credit limit of €2,800 an order of 4 of a product over €700 passes', async () => {
    const file = 'examples/shop.md';
    const loaded = loadSpec(readFileSync(resolve(ROOT, file), 'utf8'), { file });
    if (!loaded.model) throw new Error(`${file} did not load`);
    // The same count as package.json's start script.
    const start = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts.start as string;
    const count = Number(/--seed (\d+)/.exec(start)?.[1]);
    const opened = await openPrototypeStore({
      model: loaded.model,
      url: 'sqlite::memory:',
      seed: count,
      log: () => {},
    });
    if (!opened.ok) throw new Error(opened.message);
    try {
      const read = async (entity: string) =>
        (await opened.store.list(entity, { filters: [], sort: [], limit: 1000, withTotal: false })).items;
      const ted = (await read('Customer')).find((customer) => customer.name === 'Ted Metz');
      expect(ted?.creditLimit).toBe(2800);
      const dear = (await read('Product')).filter(
        (product) => Number(product.price) > 700 && Number(product.stock) >= 4,
      );
      expect(dear.length).toBeGreaterThan(0);
    } finally {
      await opened.store.close();
    }
  });
});
