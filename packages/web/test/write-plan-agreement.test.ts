import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Amount,
  type ApiDescription,
  describeApi,
  type Entity,
  type JsonValue,
  loadSpec,
  type Model,
  machineOf,
  type Principal,
} from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { ApiError, type DataProvider } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { createTabApi } from '../src/playground/tab-api';
import { servedToPeople } from './support/served-people';

// The core's write plans are the one place where a write's checks and their order are written. Here the
// same generated writes go through the three callers that answer for an API: the prototype API of
// `ninefold serve` (over HTTP, on SQLite), the playground's API in the tab, and the memory provider
// asked to validate. Every write is generated from the model (every field dropped, out of range, of the
// wrong kind, naming nothing, set by a role that may not; every transition of every record; every
// delete), made as every person, and the three must answer each one alike.

const ROOT = resolve(import.meta.dirname, '../../..');
const NOW = new Date('2026-06-01T12:00:00Z');

type People = Record<string, { role: string | null; attributes?: Record<string, JsonValue> }>;

/** A domain the writes are generated for: its specification, its people, and what they start from. */
interface Domain {
  spec: string;
  people: People;
  /** The person who seeds, and whose reads tell a record's version. */
  admin: string;
  emailDomain: string;
  /** The records every side starts from, made by the admin through the side's own calls. */
  seed: Array<{ entity: string; values: Record<string, JsonValue> }>;
  /** Answers the writes must meet, from the specification's words, so that agreement is not vacuous. */
  answers: string[];
  /** Writes whose answer the specification's words decide, as `label => answer` (pointers included). */
  decided?: string[];
}

const VILLAGE_HALL: Domain = {
  spec: 'packages/web/test/fixtures/village-hall.md',
  people: {
    caretaker: { role: 'caretaker' },
    ann: { role: 'hirer', attributes: { hirerId: 1 } },
    bo: { role: 'hirer', attributes: { hirerId: 2 } },
    treasurer: { role: 'treasurer' },
    nobody: { role: null },
  },
  admin: 'caretaker',
  emailDomain: 'hall.test',
  seed: [
    { entity: 'Hirer', values: { name: 'Ann Lee', email: 'ann@hall.test' } },
    { entity: 'Hirer', values: { name: 'Bo Ek', email: 'bo@hall.test' } },
    { entity: 'Hirer', values: { name: 'Cy Oduya', email: 'cy@hall.test' } },
    { entity: 'Room', values: { name: 'Main hall', seats: 200 } },
    { entity: 'Room', values: { name: 'Committee room', seats: 12 } },
    { entity: 'Booking', values: { hirer: 1, room: 1, day: '2026-07-01', hours: 4 } },
    { entity: 'Booking', values: { hirer: 2, room: 2, day: '2026-07-01', hours: 10, guests: 8 } },
    { entity: 'Booking', values: { hirer: 1, room: 2, day: '2026-07-02', hours: 3 } },
  ],
  answers: [
    'ok',
    '401 NOT_SIGNED_IN',
    '403 FORBIDDEN',
    '403 FORBIDDEN_FIELDS',
    '404 NOT_FOUND',
    '409 GUARD_FAILED',
    '409 ILLEGAL_TRANSITION',
    '409 STILL_REFERENCED',
    '409 USE_A_TRANSITION',
    '422 ROOM_TAKEN',
    '422 VALIDATION_FAILED',
  ],
};

// Issue 42's domain: a guard with its own code, two rules on one transition with theirs, a step that
// sets a value past its field's maximum, and a season that ends on a date constant.
const BOAT_HIRE: Domain = {
  spec: 'packages/web/test/fixtures/boat-hire.md',
  people: {
    desk: { role: 'desk' },
    kim: { role: 'skipper', attributes: { skipperId: 1 } },
    lou: { role: 'skipper', attributes: { skipperId: 2 } },
    nobody: { role: null },
  },
  admin: 'desk',
  emailDomain: 'harbour.test',
  seed: [
    { entity: 'Skipper', values: { name: 'Kim Ono', email: 'kim@harbour.test' } },
    { entity: 'Skipper', values: { name: 'Lou Berg', email: 'lou@harbour.test' } },
    { entity: 'Boat', values: { name: 'Tern', kind: 'sail', seats: 4 } },
    { entity: 'Boat', values: { name: 'Puffin', kind: 'rowing', seats: 2 } },
    // Fits, in the season: confirmed, launched, then extended past the longest a boat is out.
    { entity: 'Booking', values: { skipper: 1, boat: 1, day: '2026-07-01', hours: 7, people: 3 } },
    // Five people in a boat of two.
    { entity: 'Booking', values: { skipper: 2, boat: 2, day: '2026-07-01', hours: 2, people: 5 } },
    // The same boat and day as the first.
    { entity: 'Booking', values: { skipper: 1, boat: 1, day: '2026-07-01', hours: 3, people: 2 } },
    // After the season.
    { entity: 'Booking', values: { skipper: 2, boat: 2, day: '2026-10-03', hours: 2, people: 1 } },
  ],
  answers: [
    'ok',
    '401 NOT_SIGNED_IN',
    '403 FORBIDDEN',
    '404 NOT_FOUND',
    '409 SEASON_OVER',
    '409 ILLEGAL_TRANSITION',
    '409 STILL_REFERENCED',
    '409 USE_A_TRANSITION',
    '422 OVER_CAPACITY',
    '422 BOAT_TAKEN',
    '422 VALIDATION_FAILED',
  ],
  decided: [
    // "Guard code SEASON_OVER": a day after SEASON_ENDS (2026-09-30) is refused with that code.
    'desk transition Booking 4 confirm (confirm from wherever it is) => 409 SEASON_OVER',
    // "On: confirm", code OVER_CAPACITY, field people: five people, a boat of two seats.
    'desk transition Booking 2 confirm (confirm from wherever it is) => 422 OVER_CAPACITY at /people',
    // "On: confirm", code BOAT_TAKEN, field day: booking 1 has boat 1 confirmed that day.
    'desk transition Booking 3 confirm (confirm from wherever it is) => 422 BOAT_TAKEN at /day',
    // "Set: hours = record.hours + 2" and "Booking.hours Max MAX_HOURS": 7 + 2 is past 8.
    'desk transition Booking 1 extend (extend from wherever it is) => 422 VALIDATION_FAILED at /hours',
    'kim transition Booking 1 extend (extend from wherever it is) => 422 VALIDATION_FAILED at /hours',
    // The skipper who does not own the booking does not learn it exists.
    'lou transition Booking 1 extend (extend from wherever it is) => 404 NOT_FOUND',
  ],
};

type Write =
  | { do: 'create'; entity: string; values: Record<string, JsonValue>; why: string }
  | { do: 'update'; entity: string; id: string; values: Record<string, JsonValue>; why: string }
  | { do: 'transition'; entity: string; id: string; transition: string; why: string }
  | { do: 'delete'; entity: string; id: string; why: string };

function loadModel(spec: string): Model {
  const file = resolve(ROOT, spec);
  const loaded = loadSpec(readFileSync(file, 'utf8'), { file });
  if (!loaded.ok || !loaded.model) throw new Error(`${spec}: ${JSON.stringify(loaded.issues)}`);
  return loaded.model;
}

function amount(limit: Amount | undefined): number | undefined {
  return limit?.kind === 'number' ? limit.value : undefined;
}

/** A value of the field's kind that point 5 accepts, different for each `n`. */
function goodValue(model: Model, entity: Entity, field: Entity['fields'][number], n: number): JsonValue {
  const limits = model.validation.shown
    ? model.validation.fields.find(
        (rule) => rule.entity === entity.name && rule.field.join('.') === field.name,
      )
    : undefined;
  switch (field.kind) {
    case 'reference':
      return 1 + (n % 2);
    case 'integer':
      return Math.max(amount(limits?.min) ?? 1, 1) + (n % 3);
    case 'date':
      return `2026-09-${String(1 + (n % 28)).padStart(2, '0')}`;
    case 'enum':
      return field.values[0]?.value ?? null;
    default:
      return `${entity.name} ${field.name} ${n}`;
  }
}

/** Values point 5 refuses, each with why: out of range, of the wrong kind, naming nothing. */
function badValues(
  model: Model,
  entity: Entity,
  field: Entity['fields'][number],
): Array<[JsonValue, string]> {
  const limits = model.validation.shown
    ? model.validation.fields.find(
        (rule) => rule.entity === entity.name && rule.field.join('.') === field.name,
      )
    : undefined;
  const out: Array<[JsonValue, string]> = [];
  if (field.kind === 'reference') out.push([999, 'names no record']);
  if (field.kind === 'integer') {
    out.push(['many', 'is not a number']);
    const min = amount(limits?.min);
    const max = amount(limits?.max);
    if (min !== undefined) out.push([min - 1, 'is below its minimum']);
    if (max !== undefined) out.push([max + 1, 'is above its maximum']);
  }
  if (field.kind === 'text') {
    out.push([12, 'is not text']);
    const max = amount(limits?.max);
    if (max !== undefined) out.push(['x'.repeat(max + 1), 'is too long']);
  }
  if (field.kind === 'date') out.push(['the first of July', 'is not a date']);
  return out;
}

/** Every write the model suggests, in an order that leaves records for the later ones. */
function generateWrites(model: Model, seed: Domain['seed']): Write[] {
  const writes: Write[] = [];
  let n = 0;
  const entities = model.entities.shown ? model.entities.items : [];
  for (const entity of entities) {
    const writable = entity.fields.filter((field) => !field.readOnly && !field.derived);
    const valid = () =>
      Object.fromEntries(writable.map((field) => [field.name, goodValue(model, entity, field, ++n)]));
    writes.push({ do: 'create', entity: entity.name, values: valid(), why: 'every field valid' });
    for (const field of writable) {
      const { [field.name]: _dropped, ...rest } = valid();
      writes.push({ do: 'create', entity: entity.name, values: rest, why: `without ${field.name}` });
      for (const [value, why] of badValues(model, entity, field)) {
        writes.push({
          do: 'create',
          entity: entity.name,
          values: { ...valid(), [field.name]: value },
          why: `${field.name} ${why}`,
        });
      }
    }
    for (const field of entity.fields.filter((candidate) => candidate.readOnly)) {
      const value =
        field.kind === 'enum' ? (field.values.at(-1)?.value ?? null) : goodValue(model, entity, field, ++n);
      writes.push({
        do: 'create',
        entity: entity.name,
        values: { ...valid(), [field.name]: value },
        why: `sets read-only ${field.name}`,
      });
    }
    // The same unique values and the same room and day as a record that exists.
    const first = seed.find((record) => record.entity === entity.name);
    if (first)
      writes.push({ do: 'create', entity: entity.name, values: first.values, why: 'repeats a record' });
  }
  // Transitions before updates: the seed's ten-hour booking meets the guard on the longest booking. One
  // transition of every record at a time, twice over, so that a step meets others taken on other records
  // (a boat confirmed for a day is taken for the next booking of it) and steps from states reached by
  // others (a boat launched, then extended).
  for (const machine of model.states.shown ? model.states.machines : []) {
    for (const transition of [...machine.transitions, ...machine.transitions]) {
      for (const id of ['1', '2', '3', '4']) {
        writes.push({
          do: 'transition',
          entity: machine.entity,
          id,
          transition: transition.name,
          why: `${transition.name} from wherever it is`,
        });
      }
    }
  }
  for (const entity of entities) {
    const writable = entity.fields.filter((field) => !field.readOnly && !field.derived);
    // A unique value another record has, before the updates below change it.
    const first = seed.find((record) => record.entity === entity.name);
    for (const rule of model.validation.shown ? model.validation.fields : []) {
      const field = rule.field.join('.');
      if (rule.entity !== entity.name || !rule.unique || first?.values[field] === undefined) continue;
      writes.push({
        do: 'update',
        entity: entity.name,
        id: '2',
        values: { [field]: first.values[field] },
        why: `takes record 1's ${field}`,
      });
    }
    const ids = ['1', '2', '3'];
    for (const id of ids) {
      for (const field of writable) {
        writes.push({
          do: 'update',
          entity: entity.name,
          id,
          values: { [field.name]: goodValue(model, entity, field, ++n) },
          why: `changes ${field.name}`,
        });
        const [bad] = badValues(model, entity, field);
        if (bad)
          writes.push({
            do: 'update',
            entity: entity.name,
            id,
            values: { [field.name]: bad[0] },
            why: `${field.name} ${bad[1]}`,
          });
      }
      const machine = machineOf(model, entity);
      if (machine) {
        writes.push({
          do: 'update',
          entity: entity.name,
          id,
          values: { [machine.field]: machine.transitions[0]?.to ?? '' },
          why: 'sets the state by hand',
        });
      }
    }
    writes.push({
      do: 'update',
      entity: entity.name,
      id: '999',
      values: {},
      why: 'a record that does not exist',
    });
  }
  for (const entity of [...entities].reverse()) {
    for (const id of ['4', '3', '1']) writes.push({ do: 'delete', entity: entity.name, id, why: 'delete' });
  }
  return writes;
}

/** One side: a data interface per person, and a way to read a record's version whoever asks. */
interface Side {
  as(person: string): DataProvider;
  version(entity: string, id: string): Promise<string | undefined>;
  close(): Promise<void>;
}

async function served(model: Model, domain: Domain): Promise<Side> {
  const { as, close } = await servedToPeople(model, domain.people, { now: NOW, domain: domain.emailDomain });
  return {
    as,
    version: async (entity, id) =>
      (
        await as(domain.admin)
          .get({ entity, id })
          .catch(() => undefined)
      )?.version,
    close,
  };
}

/** The tab's API or the memory provider: one provider, asked as one person at a time. */
function inMemory(domain: Domain, make: (principal: () => Principal) => DataProvider): Side {
  let current: Principal = {};
  const data = make(() => current);
  const become = (person: string) => {
    const who = domain.people[person];
    current =
      !who || who.role === null
        ? {}
        : {
            role: who.role,
            user: {
              ...who.attributes,
              id: `user-${person}`,
              email: `${person}@${domain.emailDomain}`,
              role: who.role,
            },
          };
  };
  return {
    as: (person) => {
      become(person);
      return data;
    },
    version: async (entity, id) => {
      become(domain.admin);
      return (await data.get({ entity, id }).catch(() => undefined))?.version;
    },
    close: async () => {},
  };
}

/** What a write got: `ok`, or the status, the code and the pointers refused. */
async function outcome(side: Side, person: string, write: Write): Promise<string> {
  try {
    switch (write.do) {
      case 'create':
        await side.as(person).create({ entity: write.entity, values: write.values });
        return 'ok';
      case 'update': {
        const version = (await side.version(write.entity, write.id)) ?? '"0"';
        await side.as(person).update({ entity: write.entity, id: write.id, values: write.values, version });
        return 'ok';
      }
      case 'transition': {
        const version = await side.version(write.entity, write.id);
        await side.as(person).transition({
          entity: write.entity,
          id: write.id,
          transition: write.transition,
          ...(version ? { version } : {}),
        });
        return 'ok';
      }
      case 'delete':
        await side.as(person).delete({ entity: write.entity, id: write.id });
        return 'ok';
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const pointers = error.fieldErrors.map((field) => field.pointer).sort();
    return `${error.status} ${error.code ?? ''}${pointers.length > 0 ? ` at ${pointers.join(' ')}` : ''}`;
  }
}

describe.each([
  ['the village hall', VILLAGE_HALL],
  ['the boat hire', BOAT_HIRE],
])(
  'the write plan on %s, through the prototype API, the tab’s API and the memory provider',
  (_name, domain) => {
    it('answers every generated write alike, made as every person', async () => {
      const model = loadModel(domain.spec);
      const api = { ...describeApi(model), base: '/api' } as ApiDescription;
      const sides: Record<string, Side> = {
        serve: await served(model, domain),
        tab: inMemory(domain, (principal) => createTabApi(model, api, {}, { principal, now: () => NOW })),
        memory: inMemory(domain, (principal) =>
          createMemoryDataProvider(model, api, {}, { validate: true, principal, now: () => NOW }),
        ),
      };
      try {
        for (const [name, side] of Object.entries(sides)) {
          for (const record of domain.seed) {
            expect(
              await outcome(side, domain.admin, { do: 'create', ...record, why: 'seed' }),
              `${name} seeds`,
            ).toBe('ok');
          }
        }
        const writes = generateWrites(model, domain.seed);
        const disagreements: string[] = [];
        const seen = new Map<string, number>();
        const served = new Set<string>();
        for (const write of writes) {
          for (const person of Object.keys(domain.people)) {
            const answers: Record<string, string> = {};
            for (const [name, side] of Object.entries(sides))
              answers[name] = await outcome(side, person, write);
            const distinct = new Set(Object.values(answers));
            const label = `${person} ${write.do} ${write.entity}${'id' in write ? ` ${write.id}` : ''}${write.do === 'transition' ? ` ${write.transition}` : ''} (${write.why})`;
            if (distinct.size > 1) disagreements.push(`${label}: ${JSON.stringify(answers)}`);
            served.add(`${label} => ${answers.serve}`);
            const answer = (answers.serve ?? '').replace(/ at .*$/, '');
            seen.set(answer, (seen.get(answer) ?? 0) + 1);
          }
        }
        console.info(
          `${writes.length} generated writes, each made as ${Object.keys(domain.people).length} people on 3 sides: ` +
            [...seen].map(([answer, count]) => `${answer} ×${count}`).join(', '),
        );
        // Printed whole, so that a failure shows every disagreement at once.
        expect(disagreements).toEqual([]);
        // Not a vacuous agreement: the writes met every kind of answer the specification's words call for.
        expect([...seen.keys()].sort()).toEqual(expect.arrayContaining(domain.answers));
        expect([...served]).toEqual(expect.arrayContaining(domain.decided ?? []));
      } finally {
        for (const side of Object.values(sides)) await side.close();
      }
    }, 120_000);
  },
);
