// A dashboard's figures (issue 21): computed by the database under each role's conditions, on a domain
// of our own (fixtures/garden.yaml). Every figure is checked, for every role, against the same figure
// computed here from the records that role may read, so that SQL and the rule can never disagree.

import { readFileSync } from 'node:fs';
import {
  answerFigure,
  checkAction,
  type DashboardScreen,
  type Figure,
  type FigureAnswer,
  figureCondition,
  findEntity,
  groupRecords,
  loadSpec,
  type Model,
} from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { dropSchema, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const GARDEN = readFileSync(new URL('./fixtures/garden.yaml', import.meta.url), 'utf8');

function garden(): Model {
  const loaded = loadSpec(GARDEN, { file: 'garden.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

const CROPS = ['tomato', 'topinambur', 'bean', 'kale'];
const GARDENERS = ['ana@garden.test', 'bo@garden.test', 'cy@garden.test'];

/** 240 harvests over 5 plots and 14 weeks, some with a weight, a date or a plot left empty. */
function harvests(): StoredRecord[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: 240 }, (_, index) => {
    const day = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 98) * 86_400_000);
    const hour = Math.floor(next() * 24);
    return {
      plot: index % 17 === 0 ? null : 1 + Math.floor(next() * 5),
      crop: CROPS[Math.floor(next() * CROPS.length)] ?? 'kale',
      weight: index % 13 === 0 ? null : Math.round(next() * 500) / 100,
      organic: next() < 0.4,
      pickedOn: index % 19 === 0 ? null : day.toISOString().slice(0, 10),
      pickedAt: `${day.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:30:00.000Z`,
      gardener: GARDENERS[index % GARDENERS.length] ?? '',
    };
  });
}

/** The figure as the rule says a role sees it: over the records it may read, computed in memory. */
async function expected(
  model: Model,
  role: string,
  user: Record<string, string>,
  figure: Figure,
  all: StoredRecord[],
) {
  const entity = findEntity(model, figure.entity);
  const condition = entity && figureCondition(model, entity, figure);
  if (!condition) throw new Error('unknown figure');
  const principal = { role, user };
  const readable = all.filter(
    (record) => checkAction(model, principal, figure.entity, 'read', record).allowed,
  );
  return answerFigure(figure, undefined, (at) => groupRecords(readable, at, condition));
}

/** Equal groups in the same order, values equal to a cent (SQL and JavaScript add reals in other orders). */
function expectSame(actual: FigureAnswer, wanted: FigureAnswer, what: string) {
  if ('value' in wanted) {
    expect('value' in actual, what).toBe(true);
    const value = (actual as { value: number | null }).value;
    if (wanted.value === null) expect(value, what).toBeNull();
    else expect(value, what).toBeCloseTo(wanted.value, 6);
    return;
  }
  expect('groups' in actual, what).toBe(true);
  const groups = (actual as { groups: Array<{ key: unknown; value: number | null }> }).groups;
  const sortedKeys = (list: Array<{ key: unknown }>) => list.map((group) => JSON.stringify(group.key));
  // Categories of equal value may come in either order; periods never tie.
  expect(new Set(sortedKeys(groups)), what).toEqual(new Set(sortedKeys(wanted.groups)));
  for (const group of wanted.groups) {
    const found = groups.find((candidate) => JSON.stringify(candidate.key) === JSON.stringify(group.key));
    if (group.value === null) expect(found?.value, `${what} ${JSON.stringify(group.key)}`).toBeNull();
    else expect(found?.value, `${what} ${JSON.stringify(group.key)}`).toBeCloseTo(group.value, 6);
  }
  if (wanted.groups.some((group) => /^\d{4}-/.test(String(group.key))))
    expect(sortedKeys(groups), `${what}: periods in order`).toEqual(sortedKeys(wanted.groups));
  expect((actual as { more: number }).more, what).toBe(wanted.more);
}

const databases = await testDatabases();

for (const database of databases) {
  const title = `a dashboard's figures, on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    const model = garden();
    const home = model.screens.shown
      ? (model.screens.items.find((screen) => screen.name === 'home') as DashboardScreen)
      : undefined;
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    let all: StoredRecord[];
    const who: Record<string, { authorization: string; user: Record<string, string> }> = {};

    beforeAll(async () => {
      schema = database.postgres ? uniqueSchema('figures') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store });
      for (const name of ['Beans & Co', 'North Bed', 'Pond Side', 'Greenhouse', 'Orchard'])
        expect((await store.create('Plot', { name })).ok).toBe(true);
      for (const record of harvests()) expect((await store.create('Harvest', record)).ok).toBe(true);
      all = (await store.list('Harvest', { filters: [], sort: [], limit: 1000, withTotal: false })).items;
      for (const [role, email] of [
        ['coordinator', 'coordinator@garden.test'],
        ['gardener', 'bo@garden.test'],
        ['inspector', 'inspector@garden.test'],
        ['visitor', 'visitor@garden.test'],
      ] as const) {
        const signed = await signInAs(app, store, role, {}, email);
        who[role] = { authorization: signed.authorization, user: { id: signed.userId, email, role } };
      }
    });

    afterAll(async () => {
      await app?.close();
      await store?.close();
      if (schema) await dropSchema(schema);
    });

    const ask = (role: string, screen: string, figure: string) =>
      app.inject({
        url: `/api/_figures/${screen}/${figure}`,
        headers: { authorization: who[role]?.authorization ?? '' },
      });

    it('answers every figure, for every role that may read its fields, as the rule computes it', async () => {
      expect(home?.figures.length).toBe(10);
      let compared = 0;
      for (const role of ['coordinator', 'gardener', 'inspector']) {
        for (const figure of home?.figures ?? []) {
          const answer = await ask(role, 'home', figure.name);
          expect(answer.statusCode, `${role} ${figure.name}: ${answer.body}`).toBe(200);
          expectSame(
            answer.json(),
            await expected(model, role, who[role]?.user ?? {}, figure, all),
            `${role} ${figure.name}`,
          );
          compared += 1;
        }
      }
      expect(compared).toBe(30);
    });

    it('draws a figure over time by a period that holds its records’ whole span, unless one is asked for', async () => {
      const perDay = home?.figures.find((figure) => figure.per === 'day');
      if (!perDay) throw new Error('the garden has a figure by day');
      const chosen = (await ask('coordinator', 'home', perDay.name)).json() as FigureAnswer & {
        per?: string;
      };
      // The harvests span more than the 31 days a chart draws: by week or by month, with nothing left out.
      expect(chosen.per).not.toBe('day');
      expect('more' in chosen && chosen.more).toBe(0);
      const asked = await app.inject({
        url: `/api/_figures/home/${perDay.name}?per=day`,
        headers: { authorization: who.coordinator?.authorization ?? '' },
      });
      expect(asked.json()).toMatchObject({ per: 'day' });
      expect(asked.json().more).toBeGreaterThan(0);
      const wrong = await app.inject({
        url: `/api/_figures/home/${perDay.name}?per=fortnight`,
        headers: { authorization: who.coordinator?.authorization ?? '' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('INVALID_PERIOD');
    });

    it('counts only what the role may read: the gardener their own, the inspector the crops CEL allows', async () => {
      const count = async (role: string) => (await ask(role, 'home', 'harvests')).json().value as number;
      const coordinator = await count('coordinator');
      expect(coordinator).toBe(240);
      expect(await count('gardener')).toBe(all.filter((r) => r.gardener === 'bo@garden.test').length);
      expect(await count('inspector')).toBe(all.filter((r) => String(r.crop).startsWith('to')).length);
      const crops = (await ask('inspector', 'home', 'byCrop')).json().groups as Array<{ key: string }>;
      expect(crops.map((group) => group.key).sort()).toEqual(['tomato', 'topinambur']);
    });

    it('refuses a figure over a field the role may not read, and tells the others', async () => {
      for (const figure of ['weight', 'heavy', 'weightByCrop', 'averageByPlot', 'perWeek', 'perMonth']) {
        const answer = await ask('visitor', 'home', figure);
        expect(answer.statusCode, figure).toBe(403);
        expect(answer.json().detail).toMatch(/weight/);
      }
      const crops = await ask('visitor', 'home', 'byCrop');
      expect(crops.statusCode).toBe(200);
      expect((crops.json().groups as unknown[]).length).toBe(4);
    });

    it('refuses a dashboard the role may not see, nobody signed in, and names that are not figures', async () => {
      expect((await ask('gardener', 'coordinatorOnly', 'plots')).statusCode).toBe(403);
      expect((await ask('coordinator', 'coordinatorOnly', 'plots')).json()).toEqual({ value: 5 });
      expect((await app.inject({ url: '/api/_figures/home/harvests' })).statusCode).toBe(401);
      for (const [screen, figure] of [
        ['home', 'nothing'],
        ['nowhere', 'harvests'],
        ['home', '..%2F..%2Fharvests'],
      ]) {
        const answer = await ask('coordinator', screen ?? '', figure ?? '');
        expect(answer.statusCode, `${screen}/${figure}`).toBe(404);
        expect(answer.json().code).toBe('NO_SUCH_FIGURE');
      }
    });

    it('follows writes: a new harvest is counted at once, though the figure was remembered', async () => {
      const before = (await ask('coordinator', 'home', 'harvests')).json().value as number;
      const made = await app.inject({
        method: 'POST',
        url: '/api/harvests',
        headers: { authorization: who.coordinator?.authorization ?? '' },
        payload: { plot: 2, crop: 'kale', weight: 1.5, organic: true, gardener: 'ana@garden.test' },
      });
      expect(made.statusCode, made.body).toBe(201);
      expect((await ask('coordinator', 'home', 'harvests')).json().value).toBe(before + 1);
      await store.delete('Harvest', made.json().id);
    });
  });
}
