// Who took each step of a record's history is told by one rule of point 6: only to a role that may change
// the record too. A role that only reads it (a customer following an order, a reviewer who must not learn
// an author) gets the steps without names. Tried on three domains, as written and in generated variants
// (the author's fields hidden from every role; every role reduced to reading), on SQLite and on
// PostgreSQL, for two people of each role and for nobody. The oracle is point 6's words (grant-oracle.ts),
// not the rule under test.
import { readFileSync } from 'node:fs';
import { type JsonValue, loadSpec, type Model, permissionsApply } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { generateRecords } from '../src/seed/generate-records';
import { openStore } from '../src/store/open-store';
import type { StoredRecord } from '../src/store/store';
import { dropSchema, PG_URL, postgresUnavailable, uniqueSchema } from './support/databases';
import { grantHolds, linkedAttributes } from './support/grant-oracle';
import { signInAs } from './support/sign-in';

const NOW = new Date('2026-06-01T12:00:00Z');
const AUTHOR = { id: 'author-1', email: 'author@history.test' };
const ROOT = new URL('../../../', import.meta.url);
const SPECS = ['examples/shop.md', 'examples/helpdesk.md', 'packages/web/test/fixtures/village-hall.md'];
const pgReason = await postgresUnavailable();
if (pgReason && process.env.CI === 'true')
  throw new Error(`CI must run the history variants on PostgreSQL: ${pgReason}`);

function load(path: string): Model {
  const loaded = loadSpec(readFileSync(new URL(path, ROOT), 'utf8'), { file: path });
  if (!loaded.model) throw new Error(`${path}: ${JSON.stringify(loaded.issues)}`);
  return loaded.model;
}

/** Every field that says who made a record (set on create from the user, or compared with `user.`) hidden from every role. */
function authorHidden(model: Model): Model {
  const copy = structuredClone(model);
  if (!copy.roles.shown || !copy.entities.shown) return copy;
  for (const grant of copy.roles.grants) {
    const entity = copy.entities.items.find((candidate) => candidate.name === grant.entity);
    const authors = (entity?.fields ?? [])
      .filter(
        (field) => field.setOnCreate?.includes('user.') || grant.where?.includes(`record.${field.name} ==`),
      )
      .map((field) => field.name);
    grant.hidden = [...new Set([...grant.hidden, ...authors])];
  }
  return copy;
}

/** Every role may only read what it could read before. */
function readOnlyRoles(model: Model): Model {
  const copy = structuredClone(model);
  if (copy.roles.shown)
    copy.roles.grants = copy.roles.grants
      .filter((grant) => grant.actions.includes('read'))
      .map((grant) => ({ ...grant, actions: ['read'] }));
  return copy;
}

const VARIANTS = [
  { name: 'as written', make: (model: Model) => model },
  { name: 'with the author hidden from every role', make: authorHidden },
  { name: 'with every role reduced to reading', make: readOnlyRoles },
];

interface Tally {
  named: number;
  unnamed: number;
  refused: number;
}

async function check(model: Model, url: string, schema?: string): Promise<Tally> {
  const store = await openStore({ model, url, ...(schema ? { schema } : {}) });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model, store, now: () => NOW, liveUpdates: false });
  const tally: Tally = { named: 0, unnamed: 0, refused: 0 };
  try {
    const seeded = new Map<string, StoredRecord[]>();
    for (const [entity, records] of generateRecords(model, 4, { seed: 7, now: NOW })) {
      const made: StoredRecord[] = [];
      for (const values of records) {
        const result = await store.create(entity, values);
        if (result.ok) made.push(result.value);
      }
      seeded.set(entity, made);
    }
    const people: Array<{ role?: string; user: Record<string, JsonValue>; authorization?: string }> = [
      { user: {} },
    ];
    for (const role of model.roles.shown ? model.roles.roles : [])
      for (const which of [0, 1]) {
        const attributes = linkedAttributes(model, role.name, seeded, which);
        const signed = await signInAs(app, store, role.name, attributes, `${role.name}${which}@history.test`);
        people.push({
          role: role.name,
          user: { id: signed.userId, ...attributes },
          authorization: signed.authorization,
        });
      }
    for (const machine of model.states.shown ? model.states.machines : []) {
      const entity = model.entities.shown
        ? model.entities.items.find((e) => e.name === machine.entity)
        : undefined;
      const step = machine.transitions.find((transition) => transition.from.includes(machine.initial));
      if (!entity || !step) continue;
      for (const record of seeded.get(entity.name) ?? []) {
        const key = record[entity.key ?? 'id'] as string | number;
        await store.addHistory(entity.name, key, [
          {
            transition: step.name,
            from: machine.initial,
            to: step.to,
            by: AUTHOR,
            at: NOW.toISOString(),
          },
        ]);
        const current = (await store.get(entity.name, key)) ?? record;
        for (const person of people) {
          const answer = await app.inject({
            method: 'GET',
            url: `/api/_history/${entity.name}/${encodeURIComponent(String(key))}`,
            headers: person.authorization ? { authorization: person.authorization } : {},
          });
          const who = `${person.role ?? 'nobody'} reads the history of ${entity.name} ${key}`;
          if (person.role === undefined) {
            expect(answer.statusCode, who).toBe(401);
            tally.refused += 1;
            continue;
          }
          const principal = { role: person.role, user: person.user };
          const reads =
            !permissionsApply(model) || grantHolds(model, principal, entity.name, 'read', current);
          if (!reads) {
            expect([403, 404], who).toContain(answer.statusCode);
            tally.refused += 1;
            continue;
          }
          expect(answer.statusCode, `${who}: ${answer.body}`).toBe(200);
          const items = (answer.json() as { items: Array<{ by?: unknown }> }).items;
          expect(items.length, who).toBeGreaterThan(0);
          const editor =
            !permissionsApply(model) || grantHolds(model, principal, entity.name, 'update', current);
          for (const item of items) {
            if (editor) expect(item.by, `${who}: a role that may change it learns who`).toEqual(AUTHOR);
            else expect(item, `${who}: a reader is not told who`).not.toHaveProperty('by');
          }
          if (editor) tally.named += 1;
          else tally.unnamed += 1;
        }
      }
    }
  } finally {
    await app.close();
    await store.close();
  }
  return tally;
}

/** Over every domain and variant: the rule was met both ways, so the agreement above is not vacuous. */
const seen: Tally = { named: 0, unnamed: 0, refused: 0 };
const add = (tally: Tally) => {
  seen.named += tally.named;
  seen.unnamed += tally.unnamed;
  seen.refused += tally.refused;
};

for (const path of SPECS)
  for (const variant of VARIANTS)
    describe(`${path} ${variant.name}: the history names who took a step only to a role that may change the record`, () => {
      const model = variant.make(load(path));
      it('on SQLite', async () => {
        const tally = await check(model, 'sqlite::memory:');
        add(tally);
        expect(tally.refused, 'nobody signed in is refused').toBeGreaterThan(0);
        expect(tally.named + tally.unnamed, 'some role reads a history').toBeGreaterThan(0);
        if (variant.name === 'with every role reduced to reading') expect(tally.named).toBe(0);
      });
      it.skipIf(pgReason !== undefined)(
        `on PostgreSQL${pgReason ? ` — skipped: ${pgReason}` : ''}`,
        async () => {
          const schema = uniqueSchema('history_variants');
          const tally = await check(model, PG_URL, schema).finally(() => dropSchema(schema));
          add(tally);
          expect(tally.named + tally.unnamed).toBeGreaterThan(0);
        },
      );
    });

it('met both sides of the rule: histories read with names and without', () => {
  expect(seen.named).toBeGreaterThan(0);
  expect(seen.unnamed).toBeGreaterThan(0);
});
