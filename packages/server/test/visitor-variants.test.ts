// The role for people who have not signed in (point 6, `Signed out: yes`), on a domain of our own (the
// harbour's boat hire, packages/web/test/fixtures/boat-hire.md) and on variants generated from it: the
// visitor's grant on each entity absent, reading everything, or reading under a condition; its hidden
// fields kept or dropped, or hidden only while the booking is in some states (`Hidden while`); and no
// visitor role at all. Every channel is asked without a token, on SQLite and on PostgreSQL. The oracle is
// point 6's words, written here: a visitor reads exactly the records of the entities its grant names, for
// which the condition holds, never a hidden field of them, in any channel (list, record, search, CSV,
// history, names), and a field hidden under a condition only on the records that meet it (never a filter,
// a sort, a search or a name through it); it never writes, whatever the call ("Sign in"); and without a
// visitor role, someone not signed in reads nothing. A record the visitor may not read at all answers as
// one that does not exist.
import { readFileSync } from 'node:fs';
import { type Call, describeApi, type JsonValue, loadSpec, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { generateRecords } from '../src/seed/generate-records';
import { openStore } from '../src/store/open-store';
import { dropSchema, PG_URL, postgresUnavailable, uniqueSchema } from './support/databases';

const NOW = new Date('2026-06-01T12:00:00Z');
const SPEC = new URL('../../web/test/fixtures/boat-hire.md', import.meta.url);
const STATES = ['requested', 'confirmed', 'out', 'returned', 'cancelled'];
/** A word only the bookings' notes hold, to search for. */
const NOTE_WORD = 'lighthouse';
const pgReason = await postgresUnavailable();
if (pgReason && process.env.CI === 'true')
  throw new Error(`CI must run the visitor variants on PostgreSQL: ${pgReason}`);

/** A visitor's grant on an entity, as data the oracle reads; written into the model as point 6 would say it. */
interface VisitorGrant {
  /** Only bookings in these states, when given (`record.status in [...]`). */
  statuses?: string[];
  hidden: string[];
  /** These fields hidden while the booking is in one of these states (point 6's `Hidden while`). */
  hiddenWhile?: { fields: string[]; statuses: string[] };
}

const inStates = (statuses: string[]) =>
  `record.status in [${statuses.map((state) => `'${state}'`).join(', ')}]`;

interface Variant {
  name: string;
  /** The visitor role exists. */
  visitor: boolean;
  grants: { Boat?: VisitorGrant; Booking?: VisitorGrant };
}

function baseModel(): Model {
  const loaded = loadSpec(readFileSync(SPEC, 'utf8'), { file: 'boat-hire.md' });
  if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

function variantModel(variant: Variant): Model {
  const model = structuredClone(baseModel());
  if (!model.roles.shown) throw new Error('the boat hire names its roles');
  model.roles.grants = model.roles.grants.filter((grant) => grant.role !== 'visitor');
  // The bookings list filters and sorts by what a visitor may see on some bookings only, which it must not.
  if (model.screens.shown)
    for (const screen of model.screens.items)
      if (screen.kind === 'list' && screen.entity === 'Booking') {
        screen.filters = ['status', 'boat', 'people', 'skipper', 'note'];
        screen.sort = [{ field: 'people', direction: 'asc' }];
      }
  // Point 7 as the conventional calls, the bookings list with a search (`q`) over its text fields, and
  // each step taken by its call.
  model.calls = {
    shown: true,
    items: describeApi(model).calls.map((call) =>
      call.entity === 'Booking' && call.purpose === 'list' ? { ...call, search: { param: 'q' } } : call,
    ),
  };
  for (const machine of model.states.shown ? model.states.machines : [])
    for (const transition of machine.transitions) transition.call = `${transition.name}${machine.entity}`;
  if (!variant.visitor) {
    model.roles.roles = model.roles.roles.filter((role) => role.name !== 'visitor');
    return model;
  }
  for (const [entity, grant] of Object.entries(variant.grants)) {
    if (!grant) continue;
    model.roles.grants.push({
      role: 'visitor',
      entity,
      actions: ['read'],
      ...(grant.statuses ? { where: inStates(grant.statuses) } : {}),
      hidden: grant.hidden,
      ...(grant.hiddenWhile
        ? { hiddenWhile: { fields: grant.hiddenWhile.fields, when: inStates(grant.hiddenWhile.statuses) } }
        : {}),
      readOnly: [],
    });
  }
  return model;
}

/** Every combination: the booking grant absent, open or conditioned, its hidden fields kept or not; boats read or not. */
function variants(): Variant[] {
  const bookings: Array<VisitorGrant | undefined> = [
    undefined,
    { hidden: [] },
    { hidden: ['skipper', 'note'] },
    { statuses: ['confirmed', 'out'], hidden: [] },
    { statuses: ['confirmed', 'out'], hidden: ['skipper', 'note'] },
    { statuses: ['requested'], hidden: ['note'] },
    {
      statuses: ['confirmed', 'out'],
      hidden: ['skipper'],
      hiddenWhile: { fields: ['people', 'note'], statuses: ['confirmed'] },
    },
    { hidden: [], hiddenWhile: { fields: ['skipper', 'boat'], statuses: ['requested', 'cancelled'] } },
  ];
  const made: Variant[] = [{ name: 'no visitor role', visitor: false, grants: {} }];
  for (const booking of bookings)
    for (const boat of [undefined, { hidden: [] }, { hidden: ['seats'] }]) {
      const describe = (what: string, grant: VisitorGrant | undefined) =>
        grant === undefined
          ? `no ${what}`
          : `${what}${grant.statuses ? ` while ${grant.statuses.join(' or ')}` : ''}${grant.hidden.length ? ` without ${grant.hidden.join(', ')}` : ''}${grant.hiddenWhile ? `, ${grant.hiddenWhile.fields.join(', ')} hidden while ${grant.hiddenWhile.statuses.join(' or ')}` : ''}`;
      made.push({
        name: `visitor reads ${describe('bookings', booking)}, ${describe('boats', boat)}`,
        visitor: true,
        grants: { ...(booking ? { Booking: booking } : {}), ...(boat ? { Boat: boat } : {}) },
      });
    }
  return made;
}

interface Tally {
  queriesRefused: number;
  read: number;
  notFound: number;
  refused: number;
  writesRefused: number;
}

async function check(variant: Variant, url: string, schema?: string): Promise<Tally> {
  const model = variantModel(variant);
  const store = await openStore({ model, url, ...(schema ? { schema } : {}) });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model, store, now: () => NOW, liveUpdates: false });
  const api = describeApi(model);
  const tally: Tally = { queriesRefused: 0, read: 0, notFound: 0, refused: 0, writesRefused: 0 };
  const ask = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) => {
    const answer = await app.inject({
      method,
      url: `${api.base}${path}`,
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    return answer;
  };
  const callOf = (entity: string, purpose: Call['purpose']) =>
    api.calls.find((call) => call.entity === entity && call.purpose === purpose);
  const at = (call: Call, key: JsonValue) => call.path.replace(/\{[^}]+\}/, encodeURIComponent(String(key)));
  try {
    // Records in every state, each booking's note holding the searched word.
    const seeded = new Map<string, Array<Record<string, JsonValue>>>();
    for (const [entity, records] of generateRecords(model, 10, { seed: 5, now: NOW })) {
      const made: Array<Record<string, JsonValue>> = [];
      for (const [index, values] of records.entries()) {
        const extra: Record<string, JsonValue> =
          entity === 'Booking'
            ? { status: STATES[index % STATES.length] ?? 'requested', note: `${NOTE_WORD} ${index}` }
            : {};
        const result = await store.create(entity, { ...values, ...extra });
        if (result.ok) made.push(result.value);
      }
      seeded.set(entity, made);
    }
    for (const entity of ['Boat', 'Booking', 'Skipper'] as const) {
      const grant = variant.visitor ? variant.grants[entity as 'Boat' | 'Booking'] : undefined;
      const records = seeded.get(entity) ?? [];
      expect(records.length, `${entity} records were seeded`).toBeGreaterThan(0);
      const readable = (record: Record<string, JsonValue>) =>
        grant !== undefined &&
        (grant.statuses === undefined || grant.statuses.includes(String(record.status)));
      const expectedIds = records
        .filter(readable)
        .map((record) => record.id)
        .sort();
      // Every field that may be hidden from some record: never filtered, sorted or searched on, nor a way to names.
      const sometimesHidden = new Set([...(grant?.hidden ?? []), ...(grant?.hiddenWhile?.fields ?? [])]);
      const seededById = new Map(records.map((record) => [String(record.id), record]));
      /** The answer for a record holds no field hidden from it, and every field hidden only elsewhere. */
      const noHidden = (item: Record<string, unknown>, where: string) => {
        const record = seededById.get(String(item.id)) ?? {};
        const conditional = grant?.hiddenWhile;
        const hiddenNow = conditional?.statuses.includes(String(record.status)) ? conditional.fields : [];
        for (const field of [...(grant?.hidden ?? []), ...hiddenNow])
          expect(item, `${where} shows no ${field}`).not.toHaveProperty(field);
        for (const field of conditional?.fields ?? [])
          if (!hiddenNow.includes(field) && record[field] !== undefined && record[field] !== null)
            expect(
              item,
              `${where} shows ${field}, hidden only while ${conditional?.statuses.join(' or ')}`,
            ).toHaveProperty(field, record[field]);
      };
      const list = callOf(entity, 'list') as Call;
      const listed = await ask('GET', `${list.path}?limit=100`);
      const who = `${variant.name}: a visitor lists ${entity}`;
      if (grant === undefined) {
        expect(listed.statusCode, `${who}: ${listed.body}`).toBe(401);
        expect(listed.json().code).toBe('NOT_SIGNED_IN');
        tally.refused += 1;
      } else {
        expect(listed.statusCode, `${who}: ${listed.body}`).toBe(200);
        const items = (listed.json() as { items: Array<Record<string, unknown>> }).items;
        expect(items.map((item) => item.id).sort(), who).toEqual(expectedIds);
        for (const item of items) noHidden(item, who);
        tally.read += 1;
        // The CSV export is the same records and columns.
        const csv = await app.inject({
          method: 'GET',
          url: `${api.base}${list.path}?limit=100`,
          headers: { accept: 'text/csv' },
        });
        expect(csv.statusCode, `${who} as CSV`).toBe(200);
        const [header = '', ...rows] = csv.body.trim().split('\n');
        for (const field of grant.hidden) expect(header.split(','), `${who} as CSV`).not.toContain(field);
        for (const field of grant.hiddenWhile?.fields ?? [])
          expect(header.split(','), `${who} as CSV, ${field} blank where hidden`).toContain(field);
        expect(rows.filter((row) => row !== '').length, `${who} as CSV`).toBe(expectedIds.length);
        // Filtering or sorting on a field hidden from some records would tell its values there.
        for (const field of grant.hiddenWhile?.fields ?? []) {
          const filter = list.filters.find((candidate) => candidate.field === field);
          const asks = [
            ...(list.sort?.fields.includes(field) ? [`sort=${field}`] : []),
            ...(filter ? [`${filter.param}=${encodeURIComponent(String(records[0]?.[field] ?? '1'))}`] : []),
          ];
          for (const query of asks) {
            const refused = await ask('GET', `${list.path}?${query}&limit=100`);
            expect(refused.statusCode, `${who}, by ${query}: ${refused.body}`).toBe(403);
            expect(refused.json().code).toBe('FORBIDDEN_FIELDS');
            tally.queriesRefused += 1;
          }
        }
      }
      // A search for a word only hidden notes hold finds nothing; where notes show, the readable ones.
      if (entity === 'Booking' && grant !== undefined) {
        if (!list.search) throw new Error('the bookings list must search, or this proves nothing');
        const searched = await ask('GET', `${list.path}?${list.search.param}=${NOTE_WORD}&limit=100`);
        expect(searched.statusCode).toBe(200);
        const found = (searched.json() as { items: Array<Record<string, unknown>> }).items;
        expect(found.map((item) => item.id).sort(), `${who}, searched by note`).toEqual(
          sometimesHidden.has('note') ? [] : expectedIds,
        );
      }
      const get = callOf(entity, 'get') as Call;
      for (const record of records) {
        const one = await ask('GET', at(get, record.id as JsonValue));
        const what = `${variant.name}: a visitor reads ${entity} ${String(record.id)} (${String(record.status ?? '')})`;
        if (grant === undefined) {
          expect(one.statusCode, what).toBe(401);
        } else if (readable(record)) {
          expect(one.statusCode, `${what}: ${one.body}`).toBe(200);
          noHidden(one.json(), what);
        } else {
          // Not "forbidden": that would tell the visitor the record exists.
          expect(one.statusCode, `${what}: ${one.body}`).toBe(404);
          tally.notFound += 1;
        }
        if (entity === 'Booking' && api.history) {
          const history = await ask('GET', `${api.history}/Booking/${String(record.id)}`);
          const expected = grant === undefined ? 401 : readable(record) ? 200 : 404;
          expect(history.statusCode, `${what}, its history`).toBe(expected);
          if (expected === 200) {
            for (const step of (history.json() as { items: Array<Record<string, unknown>> }).items)
              expect(step, `${what}: a visitor is never told who took a step`).not.toHaveProperty('by');
          }
        }
      }
      // Names (docs/prototype-api.md): of each record the visitor reads, and of each that a booking it
      // reads points at through a field it sees; any other id is left out. Without a visitor role, none.
      if (api.names) {
        const ids = records.map((record) => `id=${String(record.id)}`).join('&');
        const names = await ask('GET', `${api.names}/${entity}?${ids}`);
        const what = `${variant.name}: names of ${entity}: ${names.body}`;
        if (!variant.visitor) {
          expect(names.statusCode, what).toBe(401);
        } else {
          expect(names.statusCode, what).toBe(200);
          const bookingGrant = variant.grants.Booking;
          const pointer = entity === 'Boat' ? 'boat' : entity === 'Skipper' ? 'skipper' : undefined;
          const pointedAt =
            bookingGrant &&
            pointer &&
            !bookingGrant.hidden.includes(pointer) &&
            !bookingGrant.hiddenWhile?.fields.includes(pointer)
              ? (seeded.get('Booking') ?? [])
                  .filter(
                    (booking) =>
                      bookingGrant.statuses === undefined ||
                      bookingGrant.statuses.includes(String(booking.status)),
                  )
                  .map((booking) => booking[pointer])
              : [];
          const expected = new Set([...expectedIds, ...pointedAt].map(String));
          const named = (names.json() as { items: Array<{ id: string }> }).items.map((item) => item.id);
          expect(named.sort(), what).toEqual([...expected].sort());
        }
      }
      // Never a write, whatever the call, and nothing changes.
      const sample = records[0] as Record<string, JsonValue>;
      const before = await store.get(entity, sample.id as string | number);
      const create = callOf(entity, 'create');
      const update = callOf(entity, 'update');
      const remove = callOf(entity, 'delete');
      const attempts = [
        create ? ask('POST', create.path, { ...sample, id: undefined }) : undefined,
        update ? ask(update.method, at(update, sample.id as JsonValue), { note: 'changed' }) : undefined,
        remove ? ask('DELETE', at(remove, sample.id as JsonValue)) : undefined,
      ];
      for (const attempt of attempts) {
        if (!attempt) continue;
        const answer = await attempt;
        expect(answer.statusCode, `${variant.name}: a visitor writes ${entity}: ${answer.body}`).toBe(401);
        expect(answer.json().code).toBe('NOT_SIGNED_IN');
        tally.writesRefused += 1;
      }
      expect(await store.get(entity, sample.id as string | number)).toEqual(before);
      const count = await store.list(entity, {
        filters: [],
        sort: [],
        limit: 1000,
        offset: 0,
        withTotal: true,
      });
      expect(count.total, `${variant.name}: no ${entity} was made`).toBe(records.length);
    }
    // No step is taken by a visitor, even of a record it reads.
    if (model.states.shown) {
      const booking = seeded.get('Booking')?.find((record) => record.status === 'confirmed');
      const machine = model.states.machines[0];
      const step = machine?.transitions.find((transition) => transition.from.includes('confirmed'));
      const call = step && api.calls.find((c) => c.purpose === 'transition' && c.name.includes(step.name));
      if (booking && call) {
        const answer = await ask(call.method, at(call, booking.id as JsonValue), {});
        expect(answer.statusCode, `${variant.name}: a visitor takes "${step?.name}": ${answer.body}`).toBe(
          401,
        );
        expect((await store.get('Booking', booking.id as number))?.status).toBe('confirmed');
        tally.writesRefused += 1;
      }
    }
  } finally {
    await app.close();
    await store.close();
  }
  return tally;
}

const seen: Tally = { queriesRefused: 0, read: 0, notFound: 0, refused: 0, writesRefused: 0 };

describe.each(variants())('$name', (variant) => {
  it('on SQLite', async () => {
    const tally = await check(variant, 'sqlite::memory:');
    for (const key of Object.keys(seen) as Array<keyof Tally>) seen[key] += tally[key];
    expect(tally.writesRefused, 'every write was tried').toBeGreaterThan(0);
  });
  it.skipIf(pgReason !== undefined)(`on PostgreSQL${pgReason ? ` — skipped: ${pgReason}` : ''}`, async () => {
    const schema = uniqueSchema('visitor_variants');
    await check(variant, PG_URL, schema).finally(() => dropSchema(schema));
  });
});

it('met every side of the rule: lists read, records missing to the visitor, channels refused', () => {
  expect(seen.read).toBeGreaterThan(0);
  expect(seen.notFound).toBeGreaterThan(0);
  expect(seen.refused).toBeGreaterThan(0);
  expect(
    seen.queriesRefused,
    'a filter or sort on a field hidden under a condition was tried',
  ).toBeGreaterThan(0);
});
