// An existing database imported as a specification: the workshop schema (a domain of our own, with every
// shape the import reads) on SQLite and PostgreSQL, never written to; CHECKs in both databases' words;
// and generated schemas, which must import without a throw into a specification `check` passes.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entity, Field, Model } from '@ninefold/model';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random';
import { createTemporaryDatabase, PG_URL, postgresUnavailable } from '../../server/test/support/databases';
import { importDatabase } from '../src/import-database';
import { checkMeaning, readableCondition } from '../src/map/checks';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-database-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

type Sqlite = { exec(sql: string): void; close(): void };
const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Sqlite;

function sqliteFile(name: string, sql: string): string {
  const file = join(dir, name);
  const db = new SqliteDatabase(file);
  db.exec(sql);
  db.close();
  return file;
}

function entity(model: Model | undefined, name: string): Entity {
  const found = model?.entities.shown ? model.entities.items.find((e) => e.name === name) : undefined;
  if (!found) throw new Error(`no entity ${name}`);
  return found;
}
function field(model: Model | undefined, entityName: string, name: string): Field {
  const found = entity(model, entityName).fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${entityName}.${name}`);
  return found;
}
const constraint = (model: Model | undefined, path: string) =>
  model?.validation.shown
    ? model.validation.fields.find((c) => `${c.entity}.${c.field.join('.')}` === path)
    : undefined;

/** What both databases' workshop must give, whichever said it. */
function expectWorkshop(model: Model | undefined): void {
  expect(entity(model, 'Customer').key).toBe('id');
  expect(field(model, 'Customer', 'id').readOnly).toBe(true);
  expect(constraint(model, 'Customer.name')?.required).toBe(true);
  expect(constraint(model, 'Customer.email')).toMatchObject({
    unique: true,
    max: { kind: 'number', value: 200 },
  });
  expect(constraint(model, 'Customer.created_at')?.required).toBeUndefined();
  expect(field(model, 'Job', 'customer_id')).toMatchObject({ kind: 'reference', entity: 'Customer' });
  expect(field(model, 'Job', 'status')).toMatchObject({
    kind: 'enum',
    values: ['received', 'in_progress', 'waiting_parts', 'done', 'collected'].map((value) => ({ value })),
  });
  expect(constraint(model, 'Job.quote')?.min).toEqual({ kind: 'number', value: 0 });
  const rules = model?.validation.shown ? model.validation.rules : [];
  expect(rules.map((r) => r.check)).toContain('record.promised_on >= record.received_on');
  expect(entity(model, 'Part').key).toBe('sku');
  expect(field(model, 'Part', 'category')).toMatchObject({ kind: 'enum' });
  expect(constraint(model, 'Part.name')?.max).toEqual({ kind: 'number', value: 80 });
  expect(constraint(model, 'Part.stock')?.min).toEqual({ kind: 'number', value: 0 });
  expect(field(model, 'Part', 'unit_price').kind).toBe('money');
  // The composite key is one field made of its columns, which routes and selections name as any key.
  expect(entity(model, 'JobPart').key).toBe('id');
  expect(entity(model, 'JobPart').fields.find((field) => field.name === 'id')).toMatchObject({
    kind: 'text',
    readOnly: true,
    keyOf: ['job_id', 'sku'],
  });
  expect(constraint(model, 'JobPart.quantity')?.min).toEqual({ kind: 'number', value: 1 });
  // The join table is no entity: a many-to-many list on its first side.
  expect(() => entity(model, 'JobMechanic')).toThrow();
  expect(field(model, 'Job', 'mechanics')).toMatchObject({
    kind: 'list',
    of: { kind: 'reference', entity: 'Mechanic' },
    through: 'job_mechanics',
  });
  // Each entity names its table, and a reference column is named for what it refers to.
  expect(entity(model, 'Job').table).toBe('jobs');
  expect(field(model, 'Job', 'customer_id').label).toBe('Customer');
  // Screens the schema cannot say, inferred: a list, a page, and forms but for views.
  const screens = model?.screens.shown ? model.screens.items : [];
  const at = (route: string) =>
    screens.filter((screen) => screen.route === route).map((screen) => screen.kind);
  expect(at('/job-parts')).toEqual(['list']);
  expect(at('/job-parts/:id')).toEqual(['detail']);
  expect(at('/job-parts/new')).toEqual(['create']);
  expect(at('/open-jobs/new')).toEqual([]);
  // A view is read, never written.
  expect(entity(model, 'OpenJob').fields.every((f) => f.readOnly)).toBe(true);
  expect(field(model, 'Invoice', 'pdf').kind).toBe('file');
  // SQLite's `DEFAULT 0` on a boolean column is false, as PostgreSQL's `DEFAULT false` is.
  expect(field(model, 'Invoice', 'paid').default).toBe(false);
}

describe('the workshop on SQLite', () => {
  it('imports clean, never touching the file', async () => {
    const file = sqliteFile('workshop.sqlite', fixture('workshop.sqlite.sql'));
    const before = {
      bytes: createHash('sha256').update(readFileSync(file)).digest('hex'),
      mtime: statSync(file).mtimeMs,
    };
    const imported = await importDatabase(file);
    expect(imported.result.issues).toEqual([]);
    expect(imported.result.ok).toBe(true);
    expectWorkshop(imported.result.model);
    expect(imported.result.model?.title).toBe('Workshop');
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before.bytes);
    expect(statSync(file).mtimeMs).toBe(before.mtime);
    const inferred = imported.report.points.states.filter((e) => e.kind === 'inferred').map((e) => e.message);
    expect(inferred.join('\n')).toContain('Job.status reads as a lifecycle');
  });

  it('refuses a file that does not exist, rather than make one', async () => {
    await expect(importDatabase(join(dir, 'missing.sqlite'))).rejects.toThrow();
    expect(() => statSync(join(dir, 'missing.sqlite'))).toThrow();
  });
});

const noPostgres = await postgresUnavailable();
if (noPostgres && process.env.CI === 'true')
  throw new Error(`CI must run the PostgreSQL import: ${noPostgres}`);

describe.skipIf(noPostgres !== undefined)(
  `the workshop on PostgreSQL${noPostgres ? ` — skipped: ${noPostgres}` : ''}`,
  () => {
    it('imports clean as a role that may only read, with its enum, comments and a second schema', async () => {
      const database = await createTemporaryDatabase('dbimport');
      const role = `nf_reader_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        await admin.query(fixture('workshop.pg.sql'));
        await admin.query(`CREATE ROLE ${role} LOGIN`);
        await admin.query(`GRANT USAGE ON SCHEMA public, billing TO ${role}`);
        await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public, billing TO ${role}`);
        const counts = async () =>
          (
            await admin.query(`select (select count(*) from pg_class) as relations, (select count(*) from customers) as customers,
          (select n_tup_ins + n_tup_upd + n_tup_del from pg_stat_user_tables where relname = 'jobs') as jobs_writes`)
          ).rows[0];
        const before = await counts();
        const url = new URL(database.url);
        url.username = role;
        const imported = await importDatabase(url.toString());
        expect(imported.result.issues).toEqual([]);
        expectWorkshop(imported.result.model);
        const model = imported.result.model;
        expect(entity(model, 'Customer').description).toBe('People who bring their cars in.');
        expect(field(model, 'Job', 'quote')).toMatchObject({ kind: 'money', currency: 'EUR' });
        expect(field(model, 'Mechanic', 'skills')).toMatchObject({ kind: 'list', of: { kind: 'text' } });
        expect(field(model, 'Mechanic', 'id')).toMatchObject({ kind: 'text', format: 'uuid' });
        // billing.customers takes its schema's name, beside public.customers.
        expect(entity(model, 'BillingCustomer').key).toBe('id');
        expect(field(model, 'Invoice', 'billed_to')).toMatchObject({
          kind: 'reference',
          entity: 'BillingCustomer',
        });
        expect(constraint(model, 'Invoice.billed_to')?.uniqueWith).toEqual(['issued_at']);
        const skipped = imported.report.points.validation
          .filter((e) => e.kind === 'skipped')
          .map((e) => e.message);
        expect(skipped).toEqual([
          expect.stringContaining("CHECK (((stock < 10000) OR (category = 'body'::text)))"),
        ]);
        expect(await counts()).toEqual(before);
        const privileges = await admin.query(
          `select has_table_privilege($1, 'customers', 'INSERT') as inserts`,
          [role],
        );
        expect(privileges.rows[0].inserts).toBe(false);
      } finally {
        await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
        await admin.end();
        await database.drop();
        const cleanup = new pg.Client({ connectionString: PG_URL });
        await cleanup.connect();
        await cleanup.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
        await cleanup.end();
      }
    });
  },
);

describe("CHECK constraints, in each database's words", () => {
  it.each([
    ['((price >= (0)::numeric))', { kind: 'bound', column: 'price', bound: 'min', value: 0, strict: false }],
    ['price >= 0', { kind: 'bound', column: 'price', bound: 'min', value: 0, strict: false }],
    ['(rating <= 5)', { kind: 'bound', column: 'rating', bound: 'max', value: 5, strict: false }],
    [
      "((status = ANY (ARRAY['draft'::text, 'paid'::text])))",
      { kind: 'values', column: 'status', values: ['draft', 'paid'] },
    ],
    [
      "status IN ('draft', 'it''s paid')",
      { kind: 'values', column: 'status', values: ['draft', "it's paid"] },
    ],
    ['(char_length(name) <= 80)', { kind: 'length', column: 'name', bound: 'max', value: 80 }],
    ['length(name) > 2', { kind: 'length', column: 'name', bound: 'min', value: 3 }],
    [
      '(starts_on <= ends_on)',
      { kind: 'rule', columns: ['starts_on', 'ends_on'], cel: 'record.starts_on <= record.ends_on' },
    ],
    ['(price > 0 AND price < 10)', { kind: 'untranslated' }],
    ['(unknown_column >= 0)', { kind: 'untranslated' }],
  ])('%s', (expression, meaning) => {
    expect(checkMeaning(expression, ['price', 'rating', 'status', 'name', 'starts_on', 'ends_on'])).toEqual(
      meaning,
    );
  });
});

describe('generated schemas', () => {
  const TYPES = [
    'INTEGER',
    'TEXT',
    'VARCHAR(40)',
    'REAL',
    'NUMERIC(10,2)',
    'BOOLEAN',
    'DATE',
    'DATETIME',
    'BLOB',
    'JSON',
    'UUID',
    'WEIRDTYPE',
    '',
  ];
  /** A random SQLite schema: tables with keys of every kind, references to earlier tables, uniques and CHECKs. */
  function schema(seed: number): string {
    const random = seededRandom(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const tables: Array<{ name: string; key: string[] }> = [];
    const statements: string[] = [];
    const count = 1 + Math.floor(random() * 6);
    for (let t = 0; t < count; t++) {
      const name = pick(['items', 'people', 'order_lines', 'x', 'status', 'data', 'a_b_c', 'Select']) + t;
      const columns: string[] = [];
      const names: string[] = [];
      const width = 1 + Math.floor(random() * 6);
      for (let c = 0; c < width; c++) {
        const column =
          pick(['name', 'status', 'price', 'total', 'state', 'code', 'value', 'starts_on', 'ends_on']) + c;
        names.push(column);
        const type = pick(TYPES);
        const extras = [
          random() < 0.3 ? 'NOT NULL' : '',
          random() < 0.15 ? 'UNIQUE' : '',
          random() < 0.2 ? `DEFAULT ${type.includes('INT') ? 0 : "'x'"}` : '',
        ]
          .filter(Boolean)
          .join(' ');
        columns.push(`"${column}" ${type} ${extras}`.trim());
      }
      const keyKind = pick(['rowid', 'text', 'composite', 'none']);
      let key: string[] = [];
      if (keyKind === 'rowid') {
        columns.unshift('id INTEGER PRIMARY KEY');
        key = ['id'];
      } else if (keyKind === 'text') {
        columns.unshift('code_key TEXT PRIMARY KEY');
        key = ['code_key'];
      } else if (keyKind === 'composite' && names.length >= 2) {
        key = names.slice(0, 2);
      }
      const target = tables.length ? pick(tables) : undefined;
      if (target && target.key.length === 1 && random() < 0.7) {
        columns.push(
          `ref_${target.name} INTEGER REFERENCES "${target.name}" (${target.key[0]}) ON DELETE ${pick(['CASCADE', 'SET NULL', 'RESTRICT'])}`,
        );
      }
      // Table constraints come after every column.
      if (keyKind === 'composite' && key.length === 2) columns.push(`PRIMARY KEY ("${key[0]}", "${key[1]}")`);
      const checked = pick(names);
      columns.push(
        pick([
          `CHECK ("${checked}" >= 0)`,
          `CHECK ("${checked}" IN ('a', 'b'))`,
          `CHECK (length("${checked}") <= 9)`,
          `CHECK ("${checked}" > 0 OR "${checked}" IS NULL)`,
          `CHECK (1)`,
        ]),
      );
      if (names.length >= 2 && random() < 0.3) columns.push(`UNIQUE ("${names[0]}", "${names[1]}")`);
      statements.push(`CREATE TABLE "${name}" (${columns.join(', ')});`);
      if (random() < 0.2) statements.push(`CREATE VIEW "${name}_view" AS SELECT * FROM "${name}";`);
      tables.push({ name, key });
    }
    return statements.join('\n');
  }

  it.each(Array.from({ length: 40 }, (_, i) => i + 1))(
    'seed %i imports without a throw, and check passes',
    async (seed) => {
      const sql = schema(seed);
      const file = sqliteFile(`generated-${seed}.sqlite`, sql);
      const imported = await importDatabase(file);
      expect(
        imported.result.issues.filter((i) => i.severity === 'error'),
        sql,
      ).toEqual([]);
      expect(imported.result.model, sql).toBeDefined();
    },
  );
});

describe('a CHECK as a refusal words it', () => {
  it.each([
    ["((POSITION(('@'::text) IN (email)) > 1))", "POSITION('@' IN email) > 1"],
    ['((price >= (0)::numeric))', 'price >= 0'],
    ["instr(email, '@') > 1", "instr(email, '@') > 1"],
    ['(char_length(name) <= 80)', 'char_length(name) <= 80'],
    ['((due_on >= lent_on))', 'due_on >= lent_on'],
  ])('%s -> %s', (database, readable) => {
    expect(readableCondition(database)).toBe(readable);
  });
});
