import { readFileSync } from 'node:fs';
import { faker } from '@faker-js/faker';
import {
  type Amount,
  CHECKED_FORMATS,
  type Entity,
  type FieldType,
  type JsonValue,
  loadSpec,
  type Model,
  validateRecord,
} from '@ninefold/model';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateRecords } from '../src/seed/generate-records';
import type { StoredRecord } from '../src/store/store';

const root = new URL('../../../', import.meta.url);

function loadExample(file: string): Model {
  const result = loadSpec(readFileSync(new URL(file, root), 'utf8'), { file });
  if (result.model === undefined) throw new Error(`${file} did not load`);
  return result.model;
}

const shop = loadExample('examples/shop.yaml');

const NOT_SHOWN = { shown: false } as const;

function modelWith(entities: Entity[], extra: Partial<Model> = {}): Model {
  return {
    title: 'Synthetic',
    product: NOT_SHOWN,
    screens: NOT_SHOWN,
    entities: { shown: true, items: entities },
    states: NOT_SHOWN,
    validation: NOT_SHOWN,
    roles: NOT_SHOWN,
    calls: NOT_SHOWN,
    errors: NOT_SHOWN,
    constants: NOT_SHOWN,
    ...extra,
  };
}

function records(result: Map<string, StoredRecord[]>, entity: string): StoredRecord[] {
  const found = result.get(entity);
  if (found === undefined) throw new Error(`no records for ${entity}`);
  return found;
}

function objects(value: JsonValue | undefined): StoredRecord[] {
  if (Array.isArray(value)) return value.flatMap(objects);
  return value !== null && typeof value === 'object' ? [value] : [];
}

describe('generateRecords', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives deep-equal records for the same model, count and seed, and different ones for another seed', () => {
    const first = generateRecords(shop, 50, { seed: 7 });
    const second = generateRecords(shop, 50, { seed: 7 });
    expect(second).toEqual(first);
    expect(JSON.stringify([...second])).toBe(JSON.stringify([...first]));
    expect(generateRecords(shop, 50, { seed: 8 })).not.toEqual(first);
  });

  it('does not depend on the clock, the global faker or earlier runs (regression: values drifting with today)', () => {
    const before = generateRecords(shop, 20);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2031-07-15T12:00:00Z'));
    faker.seed(99);
    faker.number.int();
    generateRecords(shop, 5, { seed: 3 });
    expect(generateRecords(shop, 20)).toEqual(before);
    expect(generateRecords(shop, 20, { now: new Date('2026-01-01T00:00:00Z') })).toEqual(before);
  });

  it('leaves the model unchanged', () => {
    const copy = structuredClone(shop);
    generateRecords(shop, 20);
    expect(shop).toEqual(copy);
  });

  it('keeps one entity’s records when another entity of the specification changes', () => {
    const changed: Model = structuredClone(shop);
    if (!changed.entities.shown) throw new Error('entities not shown');
    const order = changed.entities.items.find((entity) => entity.name === 'Order');
    order?.fields.push({ name: 'priority', kind: 'integer' });
    const before = generateRecords(shop, 20);
    const after = generateRecords(changed, 20);
    expect(after.get('Customer')).toEqual(before.get('Customer'));
    expect(after.get('Product')).toEqual(before.get('Product'));
  });

  it('makes N records of each non-embedded entity, referenced entities first', () => {
    const result = generateRecords(shop, 30);
    expect([...result.keys()]).toEqual(['Customer', 'Product', 'Order']);
    for (const list of result.values()) expect(list).toHaveLength(30);
    expect(generateRecords(shop, 0).get('Order')).toEqual([]);
  });

  it('refuses a count that is not a whole number of 0 or more (a programmer error)', () => {
    expect(() => generateRecords(shop, -1)).toThrow(RangeError);
    expect(() => generateRecords(shop, 2.5)).toThrow(RangeError);
  });

  it('points references at records that exist, by their position since the store numbers integer keys', () => {
    const n = 40;
    const result = generateRecords(shop, n);
    for (const list of result.values()) for (const record of list) expect(record).not.toHaveProperty('id');
    for (const order of records(result, 'Order')) {
      expect(order.customer).toBeTypeOf('number');
      expect(order.customer).toBeGreaterThanOrEqual(1);
      expect(order.customer).toBeLessThanOrEqual(n);
      const products = objects(order.lines).map((line) => line.product);
      expect(new Set(products).size).toBe(products.length);
      for (const product of products) expect(Number.isInteger(product) && Number(product) <= n).toBe(true);
    }
  });

  it('leaves out derived fields and fills read-only ones', () => {
    const orders = records(generateRecords(shop, 50), 'Order');
    for (const order of orders) {
      expect(order).not.toHaveProperty('total');
      expect(order.number).toMatch(/^ORD-\d{6}$/);
      expect(order.status).toBeTypeOf('string');
    }
    expect(orders.some((order) => typeof order.ownerId === 'string')).toBe(true);
  });

  it('satisfies every field constraint of the shop example on 200 records', () => {
    const result = generateRecords(shop, 200, { seed: 11 });
    if (!shop.validation.shown || !shop.entities.shown) throw new Error('the example shows validation');
    const entities = shop.entities.items;
    const constants = new Map(
      (shop.constants.shown ? shop.constants.items : []).map((constant) => [constant.name, constant]),
    );
    // Sizes of files are in bytes; the example's MAX_ATTACHMENT_SIZE is written in MB.
    const resolve = (amount: Amount | undefined, kind: string): number | undefined => {
      if (amount === undefined || amount.kind === 'date') return undefined;
      if (amount.kind === 'number') return amount.value;
      const constant = constants.get(amount.name);
      const value = Number(constant?.value);
      return kind === 'file' && constant?.unit === 'MB' ? value * 1e6 : value;
    };
    const instances = (name: string): StoredRecord[] => {
      const top = result.get(name);
      if (top) return top;
      const found: StoredRecord[] = [];
      const walk = (type: FieldType, value: JsonValue | undefined) => {
        if (value === undefined) return;
        if (type.kind === 'list' && Array.isArray(value)) for (const item of value) walk(type.of, item);
        if (type.kind === 'object') {
          for (const object of objects(value)) {
            if (type.entity === name) found.push(object);
            walkRecord(type.entity, object);
          }
        }
      };
      const walkRecord = (entity: string, record: StoredRecord) => {
        const fields = entities.find((candidate) => candidate.name === entity)?.fields ?? [];
        for (const field of fields) walk(field, record[field.name]);
      };
      for (const [entity, list] of result) for (const record of list) walkRecord(entity, record);
      return found;
    };
    const typeAt = (entity: string, path: string[]): FieldType | undefined => {
      let type: FieldType | undefined;
      let owner = entity;
      for (const step of path) {
        type = entities.find((candidate) => candidate.name === owner)?.fields.find((f) => f.name === step);
        while (type?.kind === 'list') type = type.of;
        if (type?.kind === 'object') owner = type.entity;
      }
      return type;
    };

    let checked = 0;
    for (const constraint of shop.validation.fields) {
      const path = constraint.field;
      const last = path[path.length - 1] as string;
      let parents = instances(constraint.entity);
      for (const step of path.slice(0, -1)) parents = parents.flatMap((parent) => objects(parent[step]));
      expect(parents.length, `${constraint.entity}.${path.join('.')} has instances`).toBeGreaterThan(0);
      const kind = typeAt(constraint.entity, path)?.kind ?? 'text';
      const min = resolve(constraint.min, kind);
      const max = resolve(constraint.max, kind);
      const seen = new Set<string>();
      for (const parent of parents) {
        const value = parent[last];
        const where = `${constraint.entity}.${path.join('.')} = ${JSON.stringify(value)}`;
        if (constraint.required) expect(value, where).toBeDefined();
        if (value === undefined) continue;
        checked++;
        if (constraint.pattern !== undefined) {
          expect(value, where).toBeTypeOf('string');
          expect(new RegExp(constraint.pattern, 'u').test(String(value)), where).toBe(true);
        }
        const measure =
          typeof value === 'number'
            ? value
            : typeof value === 'string'
              ? Array.from(value).length
              : Array.isArray(value)
                ? value.length
                : Number((value as StoredRecord | null)?.size);
        if (min !== undefined) expect(measure, where).toBeGreaterThanOrEqual(min);
        if (max !== undefined) expect(measure, where).toBeLessThanOrEqual(max);
        if (constraint.unique) {
          expect(seen.has(JSON.stringify(value)), where).toBe(false);
          seen.add(JSON.stringify(value));
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('passes the validation the prototype API applies to input, cross-field rules included', () => {
    if (!shop.entities.shown) throw new Error('the example shows entities');
    const entities = shop.entities.items;
    for (const [entity, list] of generateRecords(shop, 200, { seed: 12 })) {
      const readOnly = new Set(
        entities
          .find((candidate) => candidate.name === entity)
          ?.fields.filter((field) => field.readOnly)
          .map((field) => field.name),
      );
      for (const record of list) {
        // Read-only fields are the server's to set: a seed writes them, a client may not.
        const input = Object.fromEntries(Object.entries(record).filter(([name]) => !readOnly.has(name)));
        const result = validateRecord(shop, entity, input, {
          mode: 'create',
          now: new Date('2026-01-01T00:00:00Z'),
        });
        expect(result.ok ? [] : result.errors, `${entity} ${JSON.stringify(record)}`).toEqual([]);
      }
    }
  });

  it('keeps order totals plausible: 1 to 3 lines of 1 to 5 at the catalogue price', () => {
    const result = generateRecords(shop, 200, { seed: 5 });
    const products = records(result, 'Product');
    for (const order of records(result, 'Order')) {
      const lines = objects(order.lines);
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(3);
      let total = 0;
      for (const line of lines) {
        expect(line.quantity).toBeGreaterThanOrEqual(1);
        expect(line.quantity).toBeLessThanOrEqual(5);
        expect(line.unitPrice).toBe(products[Number(line.product) - 1]?.price);
        total += Number(line.quantity) * Number(line.unitPrice);
      }
      expect(total).toBeLessThanOrEqual(50_000);
    }
  });

  it('puts orders in reachable states, some in the initial one, with the moments their transitions set', () => {
    const orders = records(generateRecords(shop, 200, { seed: 2 }), 'Order');
    const statuses = new Set(orders.map((order) => order.status));
    expect([...statuses].sort()).toEqual(['cancelled', 'delivered', 'draft', 'paid', 'placed', 'shipped']);
    const drafts = orders.filter((order) => order.status === 'draft').length;
    expect(drafts).toBeGreaterThan(200 * 0.2);
    for (const order of orders) {
      const paid = ['paid', 'shipped', 'delivered'].includes(String(order.status));
      const placed = paid || order.status === 'placed';
      expect(order.paidAt !== undefined, JSON.stringify(order)).toBe(paid);
      if (order.status === 'draft') expect(order.placedOn).toBeUndefined();
      if (placed) expect(order.placedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (paid) expect(String(order.placedOn) <= String(order.paidAt).slice(0, 10)).toBe(true);
      // The ship transition's guard is has(record.shippingAddress).
      if (order.status === 'shipped' || order.status === 'delivered')
        expect(order.shippingAddress).toBeDefined();
      if (order.placedOn !== undefined) expect(String(order.placedOn) < '2026-01-01').toBe(true);
    }
  });

  it('gives nothing for a specification whose points are all not shown', () => {
    const empty = loadExample('examples/empty.md');
    expect(empty.entities.shown).toBe(false);
    expect(generateRecords(empty, 25)).toEqual(new Map());
  });

  it('fills every field kind with a value of its type', () => {
    const model = modelWith([
      {
        name: 'Tag',
        key: 'code',
        fields: [
          { name: 'code', kind: 'text' },
          { name: 'label', kind: 'text' },
        ],
      },
      {
        name: 'Thing',
        key: 'id',
        fields: [
          { name: 'id', kind: 'integer' },
          { name: 'title', kind: 'text' },
          { name: 'weight', kind: 'number' },
          { name: 'count', kind: 'integer' },
          { name: 'cost', kind: 'money', currency: 'EUR' },
          { name: 'enabled', kind: 'boolean' },
          { name: 'startsOn', kind: 'date' },
          { name: 'seenAt', kind: 'datetime' },
          { name: 'body', kind: 'markdown' },
          { name: 'manual', kind: 'file', accept: ['image/*', '.csv'] },
          { name: 'colour', kind: 'enum', values: [{ value: 'red' }, { value: 'green' }] },
          { name: 'tag', kind: 'reference', entity: 'Tag' },
          { name: 'place', kind: 'object', entity: 'Place' },
          { name: 'words', kind: 'list', of: { kind: 'text' } },
          { name: 'places', kind: 'list', of: { kind: 'object', entity: 'Place' } },
          { name: 'tags', kind: 'list', of: { kind: 'reference', entity: 'Tag' } },
          { name: 'colours', kind: 'list', of: { kind: 'enum', values: [{ value: 'a' }, { value: 'b' }] } },
          { name: 'secret', kind: 'text', writeOnly: true },
          { name: 'score', kind: 'number', derived: 'record.weight * 2.0' },
        ],
      },
      {
        name: 'Place',
        embedded: true,
        fields: [
          { name: 'city', kind: 'text' },
          { name: 'inner', kind: 'object', entity: 'Place' },
        ],
      },
    ]);
    const result = generateRecords(model, 60, { seed: 4 });
    expect([...result.keys()]).toEqual(['Tag', 'Thing']);
    const tags = records(result, 'Tag');
    const codes = tags.map((tag) => tag.code);
    expect(new Set(codes).size).toBe(60);
    for (const code of codes)
      expect(code).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const things = records(result, 'Thing');
    const present = (field: string) => things.filter((thing) => thing[field] !== undefined);
    const optional = ['title', 'weight', 'count', 'cost', 'enabled', 'startsOn', 'seenAt', 'body', 'manual'];
    optional.push('colour', 'tag', 'place', 'words', 'places', 'tags', 'colours');
    // Without point 5 every field is optional: present in about 85% of the records.
    for (const field of optional) {
      expect(present(field).length, field).toBeGreaterThan(30);
      expect(present(field).length, field).toBeLessThan(60);
    }
    for (const thing of present('title')) expect(thing.title).toBeTypeOf('string');
    for (const thing of present('weight')) expect(thing.weight).toBeTypeOf('number');
    for (const thing of present('count')) expect(Number.isInteger(thing.count)).toBe(true);
    for (const thing of present('cost')) {
      expect(Math.round(Number(thing.cost) * 100) / 100).toBe(thing.cost);
      expect(thing.cost).toBeGreaterThanOrEqual(1);
    }
    for (const thing of present('enabled')) expect(thing.enabled).toBeTypeOf('boolean');
    for (const thing of present('startsOn')) {
      expect(thing.startsOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(String(thing.startsOn) >= '2024-01-01' && String(thing.startsOn) <= '2026-01-01').toBe(true);
    }
    for (const thing of present('seenAt'))
      expect(thing.seenAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    for (const thing of present('body')) expect(String(thing.body).length).toBeGreaterThan(10);
    for (const thing of present('manual')) {
      expect(thing.manual).toEqual({
        name: expect.stringMatching(/\.(png|csv)$/),
        type: expect.stringMatching(/^(image\/png|text\/csv)$/),
        size: expect.any(Number),
      });
    }
    for (const thing of present('colour')) expect(['red', 'green']).toContain(thing.colour);
    for (const thing of present('tag')) expect(codes).toContain(thing.tag);
    for (const thing of present('place')) expect(objects(thing.place)[0]).toBeTypeOf('object');
    for (const thing of present('words')) {
      const words = thing.words as string[];
      expect(words.length).toBeGreaterThanOrEqual(1);
      expect(words.length).toBeLessThanOrEqual(3);
      expect(new Set(words).size).toBe(words.length);
    }
    for (const thing of present('places')) {
      const places = thing.places as JsonValue[];
      expect(places.length).toBeGreaterThanOrEqual(1);
      expect(objects(places)).toHaveLength(places.length);
    }
    for (const thing of present('tags')) {
      const keys = thing.tags as string[];
      expect(new Set(keys).size).toBe(keys.length);
      for (const key of keys) expect(codes).toContain(key);
    }
    for (const thing of present('colours')) {
      const colours = thing.colours as string[];
      expect(new Set(colours).size).toBe(colours.length);
      for (const colour of colours) expect(['a', 'b']).toContain(colour);
    }
    for (const thing of things) {
      expect(thing).not.toHaveProperty('id');
      expect(thing).not.toHaveProperty('score');
      expect(thing).not.toHaveProperty('secret');
    }

    // Objects nest three deep at most, even when an embedded entity contains itself.
    const depth = (value: JsonValue | undefined): number =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? 1 + depth(value.inner) : 0;
    const depths = present('place').map((thing) => depth(thing.place));
    expect(Math.max(...depths)).toBe(3);
  });

  it('applies min, max, pattern and unique from point 5, with constants from point 9', () => {
    const model = modelWith(
      [
        {
          name: 'Account',
          key: 'id',
          fields: [
            { name: 'id', kind: 'integer' },
            { name: 'email', kind: 'text' },
            { name: 'seat', kind: 'integer' },
            { name: 'slot', kind: 'text' },
            { name: 'nickname', kind: 'text' },
            { name: 'balance', kind: 'money' },
            { name: 'aliases', kind: 'list', of: { kind: 'text' } },
            { name: 'joinedOn', kind: 'date' },
          ],
        },
      ],
      {
        validation: {
          shown: true,
          rules: [],
          fields: [
            // A pattern faker's emails never match: the generator has to fall back to fromRegExp.
            {
              entity: 'Account',
              field: ['email'],
              required: true,
              unique: true,
              pattern: '^[a-z]{3}@corp\\.test$',
            },
            {
              entity: 'Account',
              field: ['seat'],
              required: true,
              unique: true,
              min: { kind: 'number', value: 1 },
              max: { kind: 'constant', name: 'SEATS' },
            },
            // Only two values fit: the rest of the records leave this optional field out.
            { entity: 'Account', field: ['slot'], unique: true, pattern: '^[AB]$' },
            {
              entity: 'Account',
              field: ['nickname'],
              required: true,
              min: { kind: 'number', value: 30 },
              max: { kind: 'number', value: 40 },
            },
            { entity: 'Account', field: ['balance'], required: true, max: { kind: 'number', value: 0.5 } },
            {
              entity: 'Account',
              field: ['aliases'],
              required: true,
              min: { kind: 'constant', name: 'ALIASES' },
            },
            {
              entity: 'Account',
              field: ['joinedOn'],
              required: true,
              min: { kind: 'date', value: '2025-06-01' },
              max: { kind: 'date', value: '2025-06-30' },
            },
          ],
        },
        constants: {
          shown: true,
          items: [
            { name: 'SEATS', value: 12 },
            { name: 'ALIASES', value: 2 },
          ],
        },
      },
    );
    const accounts = records(generateRecords(model, 12, { seed: 9 }), 'Account');
    const emails = accounts.map((account) => account.email);
    for (const email of emails) expect(email).toMatch(/^[a-z]{3}@corp\.test$/);
    expect(new Set(emails).size).toBe(12);
    expect(accounts.map((account) => account.seat).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 12 }, (_, index) => index + 1),
    );
    const slots = accounts.map((account) => account.slot).filter((slot) => slot !== undefined);
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots.length).toBeLessThanOrEqual(2);
    for (const account of accounts) {
      const nickname = Array.from(String(account.nickname)).length;
      expect(nickname).toBeGreaterThanOrEqual(30);
      expect(nickname).toBeLessThanOrEqual(40);
      expect(account.balance).toBeLessThanOrEqual(0.5);
      expect(account.balance).toBeGreaterThanOrEqual(0);
      expect((account.aliases as string[]).length).toBeGreaterThanOrEqual(2);
      expect(String(account.joinedOn) >= '2025-06-01' && String(account.joinedOn) <= '2025-06-30').toBe(true);
    }
  });

  it('numbers duplicate emails with +n before the @', () => {
    const model = modelWith(
      [
        {
          name: 'Person',
          key: 'id',
          fields: [
            { name: 'id', kind: 'integer' },
            { name: 'firstName', kind: 'text' },
            { name: 'lastName', kind: 'text' },
            { name: 'email', kind: 'text' },
          ],
        },
      ],
      {
        validation: {
          shown: true,
          rules: [],
          // 600 people called Ann Lee: faker has far fewer addresses for that name than records.
          fields: [
            { entity: 'Person', field: ['firstName'], required: true, pattern: '^Ann$' },
            { entity: 'Person', field: ['lastName'], required: true, pattern: '^Lee$' },
            {
              entity: 'Person',
              field: ['email'],
              required: true,
              unique: true,
              pattern: '^[^@\\s]+@[^@\\s]+$',
            },
          ],
        },
      },
    );
    const people = records(generateRecords(model, 600), 'Person');
    expect(people[0]).toMatchObject({ firstName: 'Ann', lastName: 'Lee' });
    const emails = people.map((person) => String(person.email));
    expect(new Set(emails).size).toBe(600);
    for (const email of emails) expect(email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(emails.some((email) => /\+\d+@/.test(email))).toBe(true);
  });

  it('breaks a reference cycle by leaving the optional back-reference out', () => {
    const model = modelWith(
      [
        {
          name: 'Team',
          key: 'id',
          fields: [
            { name: 'id', kind: 'integer' },
            { name: 'captain', kind: 'reference', entity: 'Player' },
          ],
        },
        {
          name: 'Player',
          key: 'id',
          fields: [
            { name: 'id', kind: 'integer' },
            { name: 'team', kind: 'reference', entity: 'Team' },
            { name: 'mentor', kind: 'reference', entity: 'Player' },
          ],
        },
      ],
      {
        validation: {
          shown: true,
          rules: [],
          fields: [{ entity: 'Player', field: ['team'], required: true }],
        },
      },
    );
    const result = generateRecords(model, 20);
    expect([...result.keys()]).toEqual(['Team', 'Player']);
    for (const team of records(result, 'Team')) expect(team).not.toHaveProperty('captain');
    const players = records(result, 'Player');
    for (const player of players) expect(player.team).toBeTypeOf('number');
    // A reference to the same entity points at a record inserted before it.
    expect(players[0]).not.toHaveProperty('mentor');
    players.forEach((player, index) => {
      if (player.mentor !== undefined) expect(Number(player.mentor)).toBeLessThanOrEqual(index);
    });
    expect(players.filter((player) => player.mentor !== undefined).length).toBeGreaterThan(10);
  });

  it('keeps the records of seed 1 (regression: an accidental change of the generated values)', () => {
    const result = generateRecords(shop, 20, { seed: 1 });
    const customer = records(result, 'Customer')[0];
    const product = records(result, 'Product')[0];
    expect({
      name: customer?.name,
      email: customer?.email,
      country: customer?.country,
      creditLimit: customer?.creditLimit,
    }).toEqual({
      name: 'Gene Koch',
      email: 'Gene.Koch96@example.org',
      country: 'Malaysia',
      creditLimit: 22600,
    });
    expect({ sku: product?.sku, name: product?.name, price: product?.price, stock: product?.stock }).toEqual({
      sku: 'EKW-92277',
      name: 'Small Bamboo Tuna',
      price: 843.15,
      stock: 316,
    });
  });
});

describe('records within the cross-field rules', () => {
  // A conference's talks (a domain of our own), whose rules tie a talk's length to its format and ask
  // for an abstract of some substance. The seed made lightning talks of 180 minutes.
  const TALKS = `title: Talks
product: not shown
screens: not shown
states: not shown
roles: not shown
errors: not shown
constants: not shown
calls: not shown
entities:
  Talk:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
      format: { kind: enum, values: [talk, lightning, workshop] }
      minutes: { kind: integer }
      abstract: { kind: text }
validation:
  fields:
    Talk.format: { required: true }
    Talk.minutes: { required: true, min: 5, max: 240 }
    Talk.abstract: { required: true }
  rules:
    - entity: Talk
      check: record.format != "lightning" || record.minutes <= 10
      message: A lightning talk lasts at most 10 minutes.
      field: minutes
    - entity: Talk
      check: record.format != "talk" || (record.minutes >= 20 && record.minutes <= 45)
      message: A talk lasts 20 to 45 minutes.
      field: minutes
    - entity: Talk
      check: record.format != "workshop" || record.minutes >= 90
      message: A workshop lasts at least 90 minutes.
      field: minutes
    - entity: Talk
      check: size(record.abstract) >= 60
      message: An abstract has at least 60 characters.
      field: abstract
`;

  it('draws again until a talk meets every rule: each format of its length, each abstract long enough', () => {
    const loaded = loadSpec(TALKS, { file: 'talks.yaml' });
    if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
    const talks = generateRecords(loaded.model, 60, { seed: 5 }).get('Talk') ?? [];
    expect(talks).toHaveLength(60);
    // The rules' words, read here, not by the code under test.
    const fits = (talk: StoredRecord) => {
      const minutes = Number(talk.minutes);
      const length =
        talk.format === 'lightning'
          ? minutes <= 10
          : talk.format === 'talk'
            ? minutes >= 20 && minutes <= 45
            : minutes >= 90;
      return length && String(talk.abstract).length >= 60;
    };
    expect(talks.filter((talk) => !fits(talk))).toEqual([]);
    expect(new Set(talks.map((talk) => talk.format))).toEqual(new Set(['talk', 'lightning', 'workshop']));
  });
});

describe('names by what the entity is', () => {
  const named = (entity: string) =>
    modelWith([
      {
        name: entity,
        key: 'id',
        fields: [
          { name: 'id', kind: 'integer', readOnly: true },
          { name: 'name', kind: 'text' },
        ],
      },
    ]);
  const names = (entity: string) =>
    (generateRecords(named(entity), 40, { seed: 3 }).get(entity) ?? [])
      .map((record) => record.name)
      .filter((name): name is string => typeof name === 'string');
  // Faker's own English first names: a person's name starts with one, or with a title (Miss, Dr.).
  const given = faker.definitions.person?.first_name;
  const firstNames = new Set([...(given?.generic ?? []), ...(given?.female ?? []), ...(given?.male ?? [])]);
  const personLike = (name: string) =>
    /^(Mr|Mrs|Ms|Miss|Dr)\.? /.test(name) || firstNames.has(name.split(' ')[0] ?? '');

  it('gives a speaker a person’s name', () => {
    expect(firstNames.size).toBeGreaterThan(100);
    const speakers = names('Speaker');
    expect(speakers.length).toBeGreaterThan(20);
    expect(speakers.filter(personLike)).toEqual(speakers);
  });

  it('gives a conference’s track, a boat and a team names that are not people’s', () => {
    for (const entity of ['Track', 'Boat', 'Team']) {
      expect(names(entity).length, entity).toBeGreaterThan(20);
      expect(names(entity).filter(personLike), entity).toEqual([]);
    }
  });

  it('names a sailing’s vessel as a ship, and its organiser as a person', () => {
    const model = modelWith([
      {
        name: 'Sailing',
        key: 'id',
        fields: [
          { name: 'id', kind: 'integer', readOnly: true },
          { name: 'vessel', kind: 'text' },
          { name: 'organiser', kind: 'text' },
        ],
      },
    ]);
    const sailings = generateRecords(model, 20, { seed: 3 }).get('Sailing') ?? [];
    expect(sailings.length).toBe(20);
    for (const sailing of sailings) {
      if (typeof sailing.vessel === 'string') expect(sailing.vessel).toMatch(/^MV [A-Z][\w' .-]+$/);
      if (typeof sailing.organiser === 'string')
        expect(personLike(sailing.organiser), sailing.organiser).toBe(true);
    }
    // Both are optional: some are left empty, as a person would, and the rest are named.
    expect(sailings.some((sailing) => typeof sailing.vessel === 'string')).toBe(true);
    expect(sailings.some((sailing) => typeof sailing.organiser === 'string')).toBe(true);
  });

  it('names a place after a town, with its own word', () => {
    const harbours = names('Harbour');
    expect(harbours.length).toBeGreaterThan(20);
    for (const name of harbours) expect(name).toMatch(/^[A-Z][\w' .-]+ Harbour$/);
  });
});

describe('the seed writes only values the API takes', () => {
  it.each(Object.keys(CHECKED_FORMATS))('a text field of format %s', (format) => {
    const model = modelWith([
      {
        name: 'Thing',
        key: 'id',
        fields: [
          { name: 'id', kind: 'integer', readOnly: true },
          { name: 'value', kind: 'text', format },
        ],
      },
    ]);
    const records = generateRecords(model, 30).get('Thing') ?? [];
    expect(records.filter((record) => record.value !== undefined).length).toBeGreaterThan(10);
    for (const record of records) {
      const result = validateRecord(model, 'Thing', { value: record.value ?? null }, { mode: 'create' });
      expect(result.ok ? [] : result.errors, `${format}: ${JSON.stringify(record.value)}`).toEqual([]);
    }
  });
});
