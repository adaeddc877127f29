// The names of references a role may not open, and of the people who entered records (issue 20): told
// only for ids the role already sees, on a domain of our own (fixtures/clinic.yaml).

import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { MAX_NAMED } from '../src/names';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const CLINIC = readFileSync(new URL('./fixtures/clinic.yaml', import.meta.url), 'utf8');

function clinic(text = CLINIC): Model {
  const loaded = loadSpec(text, { file: 'clinic.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

type Who = { authorization: string; userId: string };

async function names(
  app: FastifyInstance,
  who: Who | undefined,
  url: string,
): Promise<Record<string, unknown>> {
  const answer = await app.inject({ url, headers: who ? { authorization: who.authorization } : {} });
  expect(answer.statusCode, answer.body).toBe(200);
  return Object.fromEntries(
    (answer.json().items as Array<{ id: string; name: unknown }>).map((item) => [item.id, item.name]),
  );
}

/** Owners 1–3, pets 1–3 (one each), visits 1 (pet 1, room A, vaccination) and 2 (pet 2, room B). */
async function fill(store: Store, enteredBy: string): Promise<void> {
  const rows: Array<[string, Record<string, string | number>]> = [
    ['Owner', { name: 'Ada Lovelace', phone: '555-0101' }],
    ['Owner', { name: 'Tom Marsh', phone: '555-0102' }],
    ['Owner', { name: 'Ines Duarte', phone: '555-0103' }],
    ['Pet', { name: 'Biscuit', species: 'dog', owner: 1 }],
    ['Pet', { name: 'Pepper', species: 'cat', owner: 2 }],
    ['Pet', { name: 'Mochi', species: 'rabbit', owner: 3 }],
    ['Visit', { pet: 1, reason: 'Vaccination', room: 'A', enteredBy }],
    ['Visit', { pet: 2, reason: 'Limp', room: 'B', enteredBy }],
  ];
  for (const [entity, values] of rows) {
    if (!(await store.create(entity, values)).ok) throw new Error(`set-up failed: ${entity}`);
  }
}

const databases = await testDatabases();

for (const database of databases) {
  const title = `names for ids a role sees, on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    const model = clinic();
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    let desk: Who;
    let vet: Who;
    let nurse: Who;
    let intern: Who;

    beforeAll(async () => {
      schema = database.postgres ? uniqueSchema('names') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store });
      desk = await signInAs(app, store, 'desk', { name: 'Dana Desk' });
      vet = await signInAs(app, store, 'vet', { room: 'A' });
      nurse = await signInAs(app, store, 'nurse');
      intern = await signInAs(app, store, 'intern', { name: 'Ivo Intern' });
      await fill(store, desk.userId);
      // The vet enters a visit of their own, for Mochi, through the API: set on create names them.
      const made = await app.inject({
        method: 'POST',
        url: '/api/visits',
        headers: { authorization: vet.authorization },
        payload: { pet: 3, reason: 'Checkup', room: 'A' },
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json().enteredBy).toBe(vet.userId);
    });
    afterAll(async () => {
      await app?.close();
      await store?.close();
      if (schema) await dropSchema(schema);
    });

    it('names every record to a role that may read it', async () => {
      expect(await names(app, desk, '/api/_names/Owner?id=1&id=2&id=3')).toEqual({
        '1': 'Ada Lovelace',
        '2': 'Tom Marsh',
        '3': 'Ines Duarte',
      });
      expect(await names(app, vet, '/api/_names/Pet?id=1&id=2&id=3')).toEqual({
        '1': 'Biscuit',
        '2': 'Pepper',
        '3': 'Mochi',
      });
    });

    it('names a record a role may not read only where a record it reads points at it', async () => {
      // The nurse reads vaccinations only (a condition only CEL decides): visit 1, for Biscuit.
      expect(await names(app, nurse, '/api/_names/Pet?id=1&id=2&id=3')).toEqual({ '1': 'Biscuit' });
      // Owners are pointed at by pets, which the nurse may not read at all.
      expect(await names(app, nurse, '/api/_names/Owner?id=1&id=2&id=3')).toEqual({});
    });

    it('never names through a field the role may not see, nor a display field its grant hides', async () => {
      expect(await names(app, intern, '/api/_names/Pet?id=1&id=2&id=3')).toEqual({});
      // The vet sees each pet's owner id, but the vet's own grant on owners hides their names.
      expect(await names(app, vet, '/api/_names/Owner?id=1&id=2&id=3')).toEqual({});
    });

    it('finds names by what they hold, among those the role may be told, in their order', async () => {
      expect(await names(app, desk, '/api/_names/Pet?q=I')).toEqual({ '1': 'Biscuit', '3': 'Mochi' });
      expect(await names(app, nurse, '/api/_names/Pet?q=i')).toEqual({ '1': 'Biscuit' });
      expect(await names(app, nurse, '/api/_names/Pet?q=pep')).toEqual({});
      expect(await names(app, intern, '/api/_names/Pet?q=bis')).toEqual({});
      expect(await names(app, vet, '/api/_names/Owner?q=ada')).toEqual({});
      for (const url of ['/api/_names/Pet?q=', '/api/_names/Pet?q=bis&id=1', '/api/_names/Visit?q=1']) {
        const answer = await app.inject({ url, headers: { authorization: desk.authorization } });
        expect([answer.statusCode, answer.json().code], url).toEqual([400, 'INVALID_QUERY']);
      }
    });

    it('names the people who entered the records the role reads, and each person themself', async () => {
      const both = `/api/_people?id=${desk.userId}&id=${vet.userId}`;
      // The vet reads room A: visit 1 (entered by the desk) and visit 3 (their own).
      expect(await names(app, vet, both)).toEqual({
        [desk.userId]: 'Dana Desk',
        [vet.userId]: 'vet@shop.test',
      });
      // The nurse reads visit 1 only.
      expect(await names(app, nurse, both)).toEqual({ [desk.userId]: 'Dana Desk' });
      // The intern may not see who entered a visit, but is told their own name.
      expect(await names(app, intern, `${both}&id=${intern.userId}`)).toEqual({
        [intern.userId]: 'Ivo Intern',
      });
    });

    it('leaves out ids that name nothing, and says plainly what it cannot answer', async () => {
      expect(await names(app, desk, '/api/_names/Owner?id=1&id=999&id=abc')).toEqual({ '1': 'Ada Lovelace' });
      expect(await names(app, desk, '/api/_people?id=nobody')).toEqual({});
      const asked = async (url: string, who?: Who) =>
        app.inject({ url, headers: who ? { authorization: who.authorization } : {} });
      const none = await asked('/api/_names/Owner', desk);
      expect([none.statusCode, none.json().code]).toEqual([400, 'INVALID_QUERY']);
      const many = Array.from({ length: MAX_NAMED + 1 }, (_, index) => `id=${index + 1}`).join('&');
      const tooMany = await asked(`/api/_names/Owner?${many}`, desk);
      expect([tooMany.statusCode, tooMany.json().code]).toEqual([400, 'INVALID_QUERY']);
      const anonymous = await asked('/api/_names/Owner?id=1');
      expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'NOT_SIGNED_IN']);
      const nobody = await asked(`/api/_people?id=${desk.userId}`);
      expect(nobody.statusCode).toBe(401);
      const unknown = await asked('/api/_names/Horse?id=1', desk);
      expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'NO_SUCH_CALL']);
    });
  });
}

// Every combination of a role's grants on the pets and the visits that point at them, each condition met
// and broken, against the rule: a pet's name is told to a role that reads pets (without its name hidden),
// or that reads a visit for it (the condition met) and sees the visit's pet field.
describe('names, over every variant of a role’s grants', () => {
  const visitGrants = {
    none: undefined,
    all: 'actions: [read]',
    'sql met': 'actions: [read]\n          where: record.room == "A"',
    'sql broken': 'actions: [read]\n          where: record.room == "Z"',
    'cel met': 'actions: [read]\n          where: record.reason.startsWith("Vacc")',
    'cel broken': 'actions: [read]\n          where: record.reason.startsWith("Zz")',
  } as const;
  const petGrants = {
    none: undefined,
    read: 'actions: [read]',
    'name hidden': 'actions: [read]\n          hidden: [name]',
  };

  for (const [visitName, visit] of Object.entries(visitGrants)) {
    for (const hidePet of [false, true]) {
      if (visit === undefined && hidePet) continue;
      for (const [petName, pet] of Object.entries(petGrants)) {
        it(`visits: ${visitName}${hidePet ? ', pet hidden' : ''}; pets: ${petName}`, async () => {
          const grants = [
            visit && `        Visit:\n          ${visit}${hidePet ? '\n          hidden: [pet]' : ''}`,
            pet && `        Pet:\n          ${pet}`,
          ].filter(Boolean);
          const probe = `    probe:\n      label: Probe\n      can:\n${grants.length > 0 ? grants.join('\n') : '        Owner: [read]'}\n`;
          const model = clinic(CLINIC.replace('    intern:\n', `${probe}    intern:\n`));
          const store = await openStore({ model, url: 'sqlite::memory:' });
          await store.migrate({ allowDestructive: false });
          const app = await buildApp({ model, store });
          try {
            const who = await signInAs(app, store, 'probe');
            await fill(store, who.userId);
            const readsVisit = visit !== undefined && !visitName.endsWith('broken');
            const told = pet !== undefined ? petName === 'read' : readsVisit && !hidePet;
            // Visit 1 is Biscuit's (room A, a vaccination); Mochi has no visit, so only reading pets names it.
            expect(await names(app, who, '/api/_names/Pet?id=1&id=3')).toEqual({
              ...(told ? { '1': 'Biscuit' } : {}),
              ...(pet !== undefined && petName === 'read' ? { '3': 'Mochi' } : {}),
            });
          } finally {
            await app.close();
            await store.close();
          }
        });
      }
    }
  }
});
