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
const SPEC = 'packages/web/test/fixtures/village-hall.md';
const NOW = new Date('2026-06-01T12:00:00Z');

const PEOPLE: Record<string, { role: string | null; attributes?: Record<string, JsonValue> }> = {
  caretaker: { role: 'caretaker' },
  ann: { role: 'hirer', attributes: { hirerId: 1 } },
  bo: { role: 'hirer', attributes: { hirerId: 2 } },
  treasurer: { role: 'treasurer' },
  nobody: { role: null },
};

/** The records every side starts from, made by the caretaker through the side's own calls. */
const SEED: Array<{ entity: string; values: Record<string, JsonValue> }> = [
  { entity: 'Hirer', values: { name: 'Ann Lee', email: 'ann@hall.test' } },
  { entity: 'Hirer', values: { name: 'Bo Ek', email: 'bo@hall.test' } },
  { entity: 'Hirer', values: { name: 'Cy Oduya', email: 'cy@hall.test' } },
  { entity: 'Room', values: { name: 'Main hall', seats: 200 } },
  { entity: 'Room', values: { name: 'Committee room', seats: 12 } },
  { entity: 'Booking', values: { hirer: 1, room: 1, day: '2026-07-01', hours: 4 } },
  { entity: 'Booking', values: { hirer: 2, room: 2, day: '2026-07-01', hours: 10, guests: 8 } },
  { entity: 'Booking', values: { hirer: 1, room: 2, day: '2026-07-02', hours: 3 } },
];

type Write =
  | { do: 'create'; entity: string; values: Record<string, JsonValue>; why: string }
  | { do: 'update'; entity: string; id: string; values: Record<string, JsonValue>; why: string }
  | { do: 'transition'; entity: string; id: string; transition: string; why: string }
  | { do: 'delete'; entity: string; id: string; why: string };

function loadModel(): Model {
  const file = resolve(ROOT, SPEC);
  const loaded = loadSpec(readFileSync(file, 'utf8'), { file });
  if (!loaded.ok || !loaded.model) throw new Error(`${SPEC}: ${JSON.stringify(loaded.issues)}`);
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
function generateWrites(model: Model): Write[] {
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
    const first = SEED.find((record) => record.entity === entity.name);
    if (first)
      writes.push({ do: 'create', entity: entity.name, values: first.values, why: 'repeats a record' });
  }
  // Transitions before updates: the seed's ten-hour booking meets the guard on the longest booking.
  for (const machine of model.states.shown ? model.states.machines : []) {
    for (const id of ['1', '2', '3', '4']) {
      for (const transition of machine.transitions) {
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
    const first = SEED.find((record) => record.entity === entity.name);
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

async function served(model: Model): Promise<Side> {
  const { as, close } = await servedToPeople(model, PEOPLE, { now: NOW, domain: 'hall.test' });
  return {
    as,
    version: async (entity, id) =>
      (
        await as('caretaker')
          .get({ entity, id })
          .catch(() => undefined)
      )?.version,
    close,
  };
}

/** The tab's API or the memory provider: one provider, asked as one person at a time. */
function inMemory(_model: Model, make: (principal: () => Principal) => DataProvider): Side {
  let current: Principal = {};
  const data = make(() => current);
  const become = (person: string) => {
    const who = PEOPLE[person];
    current =
      !who || who.role === null
        ? {}
        : {
            role: who.role,
            user: { ...who.attributes, id: `user-${person}`, email: `${person}@hall.test`, role: who.role },
          };
  };
  return {
    as: (person) => {
      become(person);
      return data;
    },
    version: async (entity, id) => {
      become('caretaker');
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

describe('the write plan, through the prototype API, the tab’s API and the memory provider', () => {
  it('answers every generated write alike, made as every person', async () => {
    const model = loadModel();
    const api = { ...describeApi(model), base: '/api' } as ApiDescription;
    const sides: Record<string, Side> = {
      serve: await served(model),
      tab: inMemory(model, (principal) => createTabApi(model, api, {}, { principal, now: () => NOW })),
      memory: inMemory(model, (principal) =>
        createMemoryDataProvider(model, api, {}, { validate: true, principal, now: () => NOW }),
      ),
    };
    try {
      for (const [name, side] of Object.entries(sides)) {
        for (const record of SEED) {
          expect(
            await outcome(side, 'caretaker', { do: 'create', ...record, why: 'seed' }),
            `${name} seeds`,
          ).toBe('ok');
        }
      }
      const writes = generateWrites(model);
      const disagreements: string[] = [];
      const seen = new Map<string, number>();
      for (const write of writes) {
        for (const person of Object.keys(PEOPLE)) {
          const answers: Record<string, string> = {};
          for (const [name, side] of Object.entries(sides))
            answers[name] = await outcome(side, person, write);
          const distinct = new Set(Object.values(answers));
          const label = `${person} ${write.do} ${write.entity}${'id' in write ? ` ${write.id}` : ''}${write.do === 'transition' ? ` ${write.transition}` : ''} (${write.why})`;
          if (distinct.size > 1) disagreements.push(`${label}: ${JSON.stringify(answers)}`);
          const answer = (answers.serve ?? '').replace(/ at .*$/, '');
          seen.set(answer, (seen.get(answer) ?? 0) + 1);
        }
      }
      console.info(
        `${writes.length} generated writes, each made as ${Object.keys(PEOPLE).length} people on 3 sides: ` +
          [...seen].map(([answer, count]) => `${answer} ×${count}`).join(', '),
      );
      // Printed whole, so that a failure shows every disagreement at once.
      expect(disagreements).toEqual([]);
      // Not a vacuous agreement: the writes met every kind of answer the specification's words call for.
      expect([...seen.keys()].sort()).toEqual(
        expect.arrayContaining([
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
        ]),
      );
    } finally {
      for (const side of Object.values(sides)) await side.close();
    }
  }, 120_000);
});
