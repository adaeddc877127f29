// `serve --db` on a team's own tables (`Table:`, docs/database.md), as the import of the same database
// describes them: the API lists, reads, creates, edits and deletes their rows in place, every write is
// confirmed by SQL, the database's own refusals come back on their fields, other writers are seen at once,
// and the tables' shape is the same after as before. A lending library, a domain of its own.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDatabase, readPostgres, readSqlite } from '@ninefold/database';
import { loadSpec, type Model, resourceSegment } from '@ninefold/model';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { createTemporaryDatabase, postgresUnavailable, type TemporaryDatabase } from './support/databases';

/** The parts of better-sqlite3 used here: it ships no types, and this package adds none. */
interface Sqlite {
  exec(text: string): void;
  prepare(text: string): {
    reader: boolean;
    all(...values: unknown[]): unknown[];
    run(...values: unknown[]): unknown;
  };
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Sqlite;

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/existing/${name}`, import.meta.url), 'utf8');

/** One database, as each dialect holds it, and SQL to read it with. */
interface Target {
  url: string;
  source: string;
  query(text: string, values?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** A write by another program, on a connection of its own that ends with it, as `psql -c` does. */
  outside(text: string): Promise<void>;
  /** The team's tables, as the catalog describes them, to compare before and after. */
  shape(): Promise<unknown>;
  close(): Promise<void>;
}

async function postgresTarget(schema = 'library'): Promise<Target> {
  return postgresTargetOf(fixture(`${schema}.pg.sql`));
}

async function postgresTargetOf(ddl: string): Promise<Target> {
  const database: TemporaryDatabase = await createTemporaryDatabase('existing');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(ddl);
  return {
    url: database.url,
    source: database.url,
    query: async (text, values) => (await client.query(text, values)).rows,
    outside: async (text) => {
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      await other.query(text);
      await other.end();
    },
    shape: async () => (await readPostgres(database.url, ['public'])).tables,
    close: async () => {
      await client.end();
      await database.drop();
    },
  };
}

function sqliteTarget(schema = 'library'): Target {
  const file = join(mkdtempSync(join(tmpdir(), 'ninefold-existing-')), `${schema}.sqlite`);
  const setup = new Database(file);
  setup.exec(fixture(`${schema}.sqlite.sql`));
  setup.close();
  return sqliteTargetOf(file);
}

function sqliteTargetOf(file: string): Target {
  const db = new Database(file);
  return {
    url: `sqlite:${file}`,
    source: file,
    query: async (text, values = []) => {
      const statement = db.prepare(text.replace(/\$\d+/g, '?'));
      if (statement.reader) return statement.all(...values) as Array<Record<string, unknown>>;
      statement.run(...values);
      return [];
    },
    outside: async (text) => {
      const other = new Database(file);
      other.exec(text);
      other.close();
    },
    shape: async () => readSqlite(file).tables.filter((table) => !table.name.startsWith('_ninefold_')),
    close: async () => db.close(),
  };
}

async function modelOf(target: Target): Promise<Model> {
  const imported = await importDatabase(target.source);
  const errors = imported.result.issues.filter((issue) => issue.severity === 'error');
  expect(errors).toEqual([]);
  if (!imported.result.model) throw new Error('the import gave no model');
  return imported.result.model;
}

/** What a describe block serves: its database, the model imported from it, and the API on it. */
interface Served {
  target: Target;
  model: Model;
  store: Store;
  app: Awaited<ReturnType<typeof buildApp>>;
  /** The team's tables as the catalog described them before the API started. */
  before: unknown;
}

/** Imports the database `make` gives, and serves it in place for the block's tests. */
function servedInPlace(make: () => Promise<Target> | Target): Served {
  const served = {} as Served;
  beforeAll(async () => {
    served.target = await make();
    served.before = await served.target.shape();
    served.model = await modelOf(served.target);
    served.store = await openStore({ model: served.model, url: served.target.url });
    expect((await served.store.migrate({ allowDestructive: false })).ok).toBe(true);
    served.app = await buildApp({ model: served.model, store: served.store });
  });
  afterAll(async () => {
    await served.app?.close();
    await served.store?.close();
    await served.target?.close();
  });
  return served;
}

const noPostgres = await postgresUnavailable();
if (noPostgres && process.env.CI === 'true') throw new Error(`CI must run PostgreSQL: ${noPostgres}`);

for (const dialect of ['SQLite', 'PostgreSQL'] as const) {
  const skip = dialect === 'PostgreSQL' ? noPostgres : undefined;
  describe.skipIf(skip !== undefined)(
    `a lending library's own tables on ${dialect}${skip ? ` — skipped: ${skip}` : ''}`,
    () => {
      const served = servedInPlace(() => (dialect === 'SQLite' ? sqliteTarget() : postgresTarget()));

      it('names each table it serves, and keeps its own tables apart', async () => {
        const tables = Object.fromEntries(
          served.model.entities.shown
            ? served.model.entities.items.map((entity) => [entity.name, entity.table])
            : [],
        );
        expect(tables).toEqual({
          Author: 'authors',
          Book: 'books',
          Loan: 'loans',
          Member: 'members',
          Reservation: 'reservations',
        });
        if (dialect === 'PostgreSQL') {
          const own = await served.target.query(
            "select table_name from information_schema.tables where table_schema = 'ninefold' order by 1",
          );
          expect(own.map((row) => row.table_name)).toContain('_ninefold_schema');
          const mine = await served.target.query(
            "select table_name from information_schema.tables where table_schema = 'public' and table_name like '\\_ninefold%'",
          );
          expect(mine).toEqual([]);
        }
      });

      it('lists and reads the rows that were there', async () => {
        const list = await served.app.inject({ method: 'GET', url: '/api/members?sort=id' });
        expect(list.statusCode).toBe(200);
        expect(list.json().items.map((member: { full_name: string }) => member.full_name)).toEqual([
          'Ada Byron',
          'Alan Turing',
        ]);
        const book = await served.app.inject({ method: 'GET', url: '/api/books/978-0-13-110362-7' });
        expect(book.statusCode).toBe(200);
        expect(book.json()).toMatchObject({ title: 'The C Programming Language', copies: 2 });
      });

      it('creates a row with the table filling its defaults and triggers, confirmed by SQL', async () => {
        const member = await served.app.inject({
          method: 'POST',
          url: '/api/members',
          payload: { full_name: 'Grace Hopper', email: 'grace@example.com' },
        });
        expect(member.statusCode).toBe(201);
        const created = member.json();
        expect(created).toMatchObject({ full_name: 'Grace Hopper', joined_on: '2026-01-01' });
        expect(typeof created.id).toBe('number');
        const rows = await served.target.query('select full_name, email from members where id = $1', [
          created.id,
        ]);
        expect(rows).toEqual([{ full_name: 'Grace Hopper', email: 'grace@example.com' }]);

        // The trigger sets the due date; the answer is the row as stored, not as sent.
        const loan = await served.app.inject({
          method: 'POST',
          url: '/api/loans',
          payload: { member_id: created.id, isbn: '978-0-13-110362-7' },
        });
        expect(loan.statusCode).toBe(201);
        expect(loan.json()).toMatchObject({ lent_on: '2026-11-01', due_on: '2026-11-15' });
      });

      it('edits with If-Match, and refuses a change made meanwhile by another writer', async () => {
        const read = await served.app.inject({ method: 'GET', url: '/api/books/978-0-13-110362-7' });
        const etag = read.headers.etag as string;
        expect(etag).toMatch(/^"\d+"$/);
        const edited = await served.app.inject({
          method: 'PATCH',
          url: '/api/books/978-0-13-110362-7',
          headers: { 'if-match': etag },
          payload: { copies: 3 },
        });
        expect(edited.statusCode).toBe(200);
        expect(await served.target.query('select copies from books')).toEqual([{ copies: 3 }]);
        // The ETag a write answers is the version it left: the next edit may be made over it.
        const again = await served.app.inject({
          method: 'PATCH',
          url: '/api/books/978-0-13-110362-7',
          headers: { 'if-match': edited.headers.etag as string },
          payload: { copies: 3 },
        });
        expect(again.statusCode).toBe(200);
        // Someone at psql changes the row: the version the client holds no longer matches.
        const fresh = again.headers.etag as string;
        await served.target.query("update books set title = 'K&R' where isbn = '978-0-13-110362-7'");
        const stale = await served.app.inject({
          method: 'PATCH',
          url: '/api/books/978-0-13-110362-7',
          headers: { 'if-match': fresh },
          payload: { copies: 4 },
        });
        expect(stale.statusCode).toBe(412);
        expect(await served.target.query('select copies, title from books')).toEqual([
          { copies: 3, title: 'K&R' },
        ]);
      });

      it('shows at once a row another writer inserted', async () => {
        const seen = async () =>
          (await served.app.inject({ method: 'GET', url: '/api/members?sort=id' })).json().items
            .length as number;
        const count = await seen();
        await served.target.query("insert into members (full_name) values ('Written at psql')");
        expect(await seen()).toBe(count + 1);
      });

      it('tells live updates of a write another program made, within seconds', async () => {
        const from = await served.store.shared.lastEventId();
        await served.target.outside(
          "insert into books (isbn, title) values ('978-0-262-03384-8', 'Introduction to Algorithms')",
        );
        // PostgreSQL counts a session's writes when it ends, or after 10 s of it staying open and idle.
        const told = async () =>
          (await served.store.shared.eventsAfter(from, 50)).some(
            (event) => event.entity === 'Book' && event.kind === 'changed',
          );
        let seen = false;
        for (let tries = 0; tries < 150 && !seen; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          seen = await told();
        }
        expect(seen).toBe(true);
      }, 20_000);

      it('answers the table’s own CHECK, which point 5 could not say, on its field', async () => {
        const refused = await served.app.inject({
          method: 'POST',
          url: '/api/members',
          payload: { full_name: 'No At', email: 'nobody.example.com' },
        });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors).toEqual([
          expect.objectContaining({
            pointer: '/email',
            code: 'rule',
            detail: expect.stringMatching(/^Email does not meet the table's condition .*@/),
          }),
        ]);
        expect(await served.target.query("select id from members where full_name = 'No At'")).toEqual([]);
      });

      it('refuses a delete the table’s references block, and deletes one they do not', async () => {
        const blocked = await served.app.inject({ method: 'DELETE', url: '/api/members/1' });
        expect(blocked.statusCode).toBe(409);
        expect(await served.target.query('select id from members where id = 1')).toEqual([{ id: 1 }]);
        await served.target.query("insert into members (id, full_name) values (90, 'Passing through')");
        const gone = await served.app.inject({ method: 'DELETE', url: '/api/members/90' });
        expect(gone.statusCode).toBe(204);
        expect(await served.target.query('select id from members where id = 90')).toEqual([]);
      });

      it('serves a key of several columns: read, listed page by page in key order, edited and deleted by it', async () => {
        const book = encodeURIComponent('978-0-13-110362-7');
        const one = await served.app.inject({ method: 'GET', url: `/api/reservations/2,${book}` });
        expect(one.statusCode).toBe(200);
        expect(one.json()).toMatchObject({
          id: '2,978-0-13-110362-7',
          member_id: 2,
          place: 2,
          note: 'after Ada',
        });
        // In key order, a page at a time, by number and by cursor: no row twice, none missing.
        const pages: string[] = [];
        for (const page of [1, 2, 3]) {
          const answer = await served.app.inject({
            method: 'GET',
            url: `/api/reservations?page=${page}&limit=1`,
          });
          expect(answer.statusCode).toBe(200);
          pages.push(...answer.json().items.map((item: { id: string }) => item.id));
        }
        expect(pages).toEqual(['1,978-0-13-110362-7', '2,978-0-13-110362-7']);
        const first = await served.store.list('Reservation', {
          filters: [],
          sort: [],
          limit: 1,
          withTotal: false,
        });
        expect(first.nextCursor).toBeDefined();
        const second = await served.store.list('Reservation', {
          filters: [],
          sort: [],
          limit: 1,
          withTotal: false,
          cursor: first.nextCursor,
        });
        expect([...first.items, ...second.items].map((item) => item.id)).toEqual(pages);
        expect(second.nextCursor).toBeUndefined();

        const made = await served.app.inject({
          method: 'POST',
          url: '/api/reservations',
          payload: { member_id: 1, isbn: '978-0-262-03384-8', place: 1 },
        });
        expect(made.statusCode).toBe(201);
        expect(made.json().id).toBe('1,978-0-262-03384-8');
        const edited = await served.app.inject({
          method: 'PATCH',
          url: `/api/reservations/2,${book}`,
          headers: { 'if-match': one.headers.etag as string },
          payload: { place: 3 },
        });
        expect(edited.statusCode).toBe(200);
        // Only that row changed: a key of several columns never reaches the rows that share one of them.
        expect(
          await served.target.query('select member_id, place from reservations where isbn = $1 order by 1', [
            '978-0-13-110362-7',
          ]),
        ).toEqual([
          { member_id: 1, place: 1 },
          { member_id: 2, place: 3 },
        ]);
        const gone = await served.app.inject({ method: 'DELETE', url: `/api/reservations/1,${book}` });
        expect(gone.statusCode).toBe(204);
        expect(await served.target.query('select member_id from reservations order by 1, isbn')).toEqual([
          { member_id: 1 },
          { member_id: 2 },
        ]);
        expect((await served.app.inject({ method: 'GET', url: '/api/reservations/1' })).statusCode).toBe(404);
      });

      it('keeps a list of references in its join table: read with the record, replaced as a whole, gone with it', async () => {
        const isbn = '978-0-13-110362-7';
        const book = await served.app.inject({ method: 'GET', url: `/api/books/${isbn}` });
        expect(book.json().authors).toEqual([1, 2]);
        const listed = await served.app.inject({ method: 'GET', url: '/api/books?sort=isbn' });
        expect(listed.json().items.map((item: { authors: number[] }) => item.authors)).toEqual([[1, 2], []]);

        const edited = await served.app.inject({
          method: 'PATCH',
          url: `/api/books/${isbn}`,
          headers: { 'if-match': book.headers.etag as string },
          payload: { authors: [2, 3] },
        });
        expect(edited.statusCode).toBe(200);
        expect(edited.json().authors).toEqual([2, 3]);
        expect(
          await served.target.query('select author_id from book_authors where isbn = $1 order by 1', [isbn]),
        ).toEqual([{ author_id: 2 }, { author_id: 3 }]);
        // Its list is part of the record: a change to it alone is a change, seen by If-Match.
        expect(edited.headers.etag).not.toBe(book.headers.etag);

        // A refused change leaves the list as it was.
        const refused = await served.app.inject({
          method: 'PATCH',
          url: `/api/books/${isbn}`,
          headers: { 'if-match': edited.headers.etag as string },
          payload: { authors: [1], copies: -1 },
        });
        expect(refused.statusCode).toBe(422);
        expect(
          await served.target.query('select author_id from book_authors where isbn = $1 order by 1', [isbn]),
        ).toEqual([{ author_id: 2 }, { author_id: 3 }]);

        const made = await served.app.inject({
          method: 'POST',
          url: '/api/books',
          payload: { isbn: '978-0-201-89683-1', title: 'The Art of Computer Programming', authors: [3] },
        });
        expect(made.statusCode).toBe(201);
        expect(made.json().authors).toEqual([3]);
        const gone = await served.app.inject({ method: 'DELETE', url: '/api/books/978-0-201-89683-1' });
        expect(gone.statusCode).toBe(204);
        expect(
          await served.target.query("select isbn from book_authors where isbn = '978-0-201-89683-1'"),
        ).toEqual([]);
      });

      it('leaves the tables’ shape as it found it', async () => {
        expect(await served.target.shape()).toEqual(served.before);
      });
    },
  );
}

describe('the database’s own refusals, where the specification says nothing of them', () => {
  it('come back on their fields: a unique column and a NOT NULL one', async () => {
    const target = sqliteTarget();
    try {
      const imported = await modelOf(target);
      // The same model without point 5: only the table itself refuses.
      const model: Model = { ...imported, validation: { shown: false, reason: 'not shown' } } as Model;
      const store = await openStore({ model, url: target.url });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      const app = await buildApp({ model, store });
      try {
        const twice = await app.inject({
          method: 'POST',
          url: '/api/members',
          payload: { full_name: 'Ada Again', email: 'ada@example.com' },
        });
        expect(twice.statusCode).toBe(422);
        expect(twice.json().errors).toEqual([expect.objectContaining({ pointer: '/email' })]);
        const nameless = await app.inject({
          method: 'POST',
          url: '/api/members',
          payload: { email: 'x@y.z' },
        });
        expect(nameless.statusCode).toBe(422);
        expect(nameless.json().errors).toEqual([
          expect.objectContaining({ pointer: '/full_name', code: 'required' }),
        ]);
        expect(await target.query('select count(*) as n from members')).toEqual([{ n: 2 }]);
      } finally {
        await app.close();
        await store.close();
      }
    } finally {
      await target.close();
    }
  });

  it('a mapping that does not match the tables stops the start, naming each mismatch', async () => {
    const target = sqliteTarget();
    try {
      const imported = await modelOf(target);
      if (!imported.entities.shown) throw new Error('no entities');
      const model: Model = {
        ...imported,
        entities: {
          ...imported.entities,
          items: imported.entities.items.map((entity) =>
            entity.name === 'Book'
              ? { ...entity, fields: [...entity.fields, { name: 'shelf', kind: 'text' }] }
              : entity.name === 'Loan'
                ? { ...entity, table: 'lendings' }
                : entity,
          ),
        },
      } as Model;
      const store = await openStore({ model, url: target.url });
      try {
        await expect(store.migrate({ allowDestructive: false })).rejects.toThrow(
          /field "Book.shelf" is kept in the column "shelf" of "books"[\s\S]*entity "Loan" lives in the table "lendings"/,
        );
      } finally {
        await store.close();
      }
    } finally {
      await target.close();
    }
  });
});

describe('docs/database.md’s example, served as a stranger would paste it', () => {
  // The guide's Markdown, under a title and with the other points not shown, on tables made to match it.
  const guide = readFileSync(new URL('../../../docs/database.md', import.meta.url), 'utf8');
  const section = guide.slice(guide.indexOf('## Serving the tables in place'));
  const example = /```markdown\n([\s\S]*?)```/.exec(section)?.[1];
  const notShown = (n: number, name: string) => `## ${n}. ${name}\n\nNot shown.\n`;

  it('loads clean, and reads and writes its columns, join table and key of two fields', async () => {
    if (example === undefined) throw new Error('the example is gone from the guide');
    const spec = [
      '# Library\n',
      notShown(1, 'Product'),
      notShown(2, 'Screens and routes'),
      `## 3. Entities and fields\n\n${example}`,
      ...[
        'States and transitions',
        'Validation rules',
        'Roles and permissions',
        'Calls',
        'Error catalogue',
        'Business constants and limits',
      ].map((name, index) => notShown(index + 4, name)),
    ].join('\n');
    const loaded = loadSpec(spec, { file: 'library.md' });
    expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    if (!loaded.model) throw new Error('the example did not load');
    const file = join(mkdtempSync(join(tmpdir(), 'ninefold-guide-')), 'library.sqlite');
    const db = new Database(file);
    db.exec(`
      CREATE TABLE members (id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, email TEXT);
      CREATE TABLE books (isbn TEXT PRIMARY KEY, title TEXT);
      CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE book_authors (isbn TEXT REFERENCES books (isbn), author_id INTEGER REFERENCES authors (id),
        PRIMARY KEY (isbn, author_id));
      CREATE TABLE reservations (member INTEGER REFERENCES members (id), isbn TEXT REFERENCES books (isbn),
        place INTEGER, PRIMARY KEY (member, isbn));
      INSERT INTO members (full_name) VALUES ('Ada Byron');
      INSERT INTO authors (name) VALUES ('Brian Kernighan');
    `);
    const store = await openStore({ model: loaded.model, url: `sqlite:${file}` });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({ model: loaded.model, store });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/members/1' })).json()).toMatchObject({
        id: 1,
        name: 'Ada Byron',
      });
      const book = await app.inject({
        method: 'POST',
        url: '/api/books',
        payload: { isbn: '978-0-13-110362-7', title: 'The C Programming Language', authors: [1] },
      });
      expect(book.statusCode).toBe(201);
      const reservation = await app.inject({
        method: 'POST',
        url: '/api/reservations',
        payload: { member: 1, isbn: '978-0-13-110362-7', place: 1 },
      });
      expect(reservation.json().id).toBe('1,978-0-13-110362-7');
      expect(db.prepare('select * from book_authors').all()).toEqual([
        { isbn: '978-0-13-110362-7', author_id: 1 },
      ]);
      expect(db.prepare('select member, place from reservations').all()).toEqual([{ member: 1, place: 1 }]);
    } finally {
      await app.close();
      await store.close();
      db.close();
    }
  });
});

for (const dialect of ['SQLite', 'PostgreSQL'] as const) {
  const skip = dialect === 'PostgreSQL' ? noPostgres : undefined;
  describe.skipIf(skip !== undefined)(`Chinook, the well-known sample, on ${dialect}`, () => {
    const served = servedInPlace(() =>
      dialect === 'SQLite' ? sqliteTarget('chinook') : postgresTarget('chinook'),
    );

    it('imports its PascalCase tables, money, self-reference and playlist join table', () => {
      const entity = (name: string) =>
        served.model.entities.shown
          ? served.model.entities.items.find((item) => item.name === name)
          : undefined;
      expect(entity('Track')?.table).toBe('Track');
      expect(entity('Track')?.fields.find((field) => field.name === 'UnitPrice')?.kind).toBe('money');
      expect(entity('Employee')?.fields.find((field) => field.name === 'ReportsTo')).toMatchObject({
        kind: 'reference',
        entity: 'Employee',
      });
      expect(entity('Playlist')?.fields.find((field) => field.name === 'tracks')).toMatchObject({
        through: 'PlaylistTrack',
      });
    });

    it('reads, creates and edits through its own keys and quoted names, confirmed by SQL', async () => {
      const track = await served.app.inject({ method: 'GET', url: '/api/tracks/3' });
      expect(track.json()).toMatchObject({ Name: 'Blue in Green', UnitPrice: 1.29, AlbumId: 2 });
      const playlist = await served.app.inject({ method: 'GET', url: '/api/playlists/1' });
      expect(playlist.json().tracks).toEqual([1, 3]);
      const invoice = await served.app.inject({ method: 'GET', url: '/api/invoices/1' });
      expect(invoice.json()).toMatchObject({ Total: 2.28, InvoiceDate: '2026-01-01T00:00:00.000Z' });

      // Chinook numbers its rows itself on PostgreSQL: the key is asked for, and a missing one is refused on
      // its field. SQLite numbers an INTEGER PRIMARY KEY itself (it is the rowid), and the import says so.
      if (dialect === 'PostgreSQL') {
        const nameless = await served.app.inject({
          method: 'POST',
          url: '/api/artists',
          payload: { Name: 'Bill Evans' },
        });
        expect(nameless.statusCode).toBe(422);
        expect(nameless.json().errors).toEqual([expect.objectContaining({ pointer: '/ArtistId' })]);
      }
      const made = await served.app.inject({
        method: 'POST',
        url: '/api/artists',
        payload: dialect === 'PostgreSQL' ? { ArtistId: 3, Name: 'Bill Evans' } : { Name: 'Bill Evans' },
      });
      expect(made.statusCode).toBe(201);
      expect(made.json().ArtistId).toBe(3);
      expect(await served.target.query('select "Name" from "Artist" where "ArtistId" = 3')).toEqual([
        { Name: 'Bill Evans' },
      ]);
      const edited = await served.app.inject({
        method: 'PATCH',
        url: '/api/playlists/2',
        headers: {
          'if-match': (await served.app.inject({ method: 'GET', url: '/api/playlists/2' })).headers
            .etag as string,
        },
        payload: { tracks: [2] },
      });
      expect(edited.statusCode).toBe(200);
      expect(
        await served.target.query('select "TrackId" from "PlaylistTrack" where "PlaylistId" = 2'),
      ).toEqual([{ TrackId: 2 }]);
      const priced = await served.app.inject({
        method: 'PATCH',
        url: '/api/tracks/2',
        headers: {
          'if-match': (await served.app.inject({ method: 'GET', url: '/api/tracks/2' })).headers
            .etag as string,
        },
        payload: { UnitPrice: 1.49 },
      });
      expect(priced.statusCode).toBe(200);
      expect(
        await served.target.query(
          'select cast("UnitPrice" as text) as price from "Track" where "TrackId" = 2',
        ),
      ).toEqual([{ price: '1.49' }]);
    });
  });
}
for (const dialect of ['SQLite', 'PostgreSQL'] as const) {
  const skip = dialect === 'PostgreSQL' ? noPostgres : undefined;
  describe.skipIf(skip !== undefined)(`the workshop of the import's tests, on ${dialect}`, () => {
    // Every shape the import reads (an enum type, a view, a second schema, arrays, bytes, JSON): each
    // entity lists and reads in place, and a write to the plainest goes through.
    const workshop = (name: string) =>
      readFileSync(new URL(`../../database/test/fixtures/${name}`, import.meta.url), 'utf8');
    const served = servedInPlace(() => {
      if (dialect === 'PostgreSQL') return postgresTargetOf(workshop('workshop.pg.sql'));
      const file = join(mkdtempSync(join(tmpdir(), 'ninefold-workshop-')), 'workshop.sqlite');
      const db = new Database(file);
      db.exec(workshop('workshop.sqlite.sql'));
      db.close();
      return sqliteTargetOf(file);
    });

    it('lists and reads every entity in place', async () => {
      const entities = served.model.entities.shown ? served.model.entities.items : [];
      expect(entities.length).toBeGreaterThan(5);
      for (const entity of entities) {
        const path = `/api/${resourceSegment(entity)}`;
        const list = await served.app.inject({ method: 'GET', url: path });
        expect(list.statusCode, `${path}: ${list.body}`).toBe(200);
        const first = list.json().items[0] as Record<string, unknown> | undefined;
        if (!first || entity.key === undefined) continue;
        const one = await served.app.inject({
          method: 'GET',
          url: `${path}/${encodeURIComponent(String(first[entity.key]))}`,
        });
        expect(one.statusCode, `${path}/…: ${one.body}`).toBe(200);
      }
    });

    // SQLite has no array columns: its workshop keeps the skills as JSON text.
    if (dialect === 'PostgreSQL')
      it('writes a list into a PostgreSQL array column as an array', async () => {
        const made = await served.app.inject({
          method: 'POST',
          url: '/api/mechanics',
          payload: { name: 'Grease Monkey', skills: ['brakes', 'tyres'] },
        });
        expect(made.statusCode, made.body).toBe(201);
        expect(made.json().skills).toEqual(['brakes', 'tyres']);
        expect(
          await served.target.query("select skills from mechanics where name = 'Grease Monkey'"),
        ).toEqual([{ skills: ['brakes', 'tyres'] }]);
      });

    it('creates a customer and refuses a second one with the same email on its field', async () => {
      const made = await served.app.inject({
        method: 'POST',
        url: '/api/customers',
        payload: { name: 'Katherine Johnson', email: 'katherine@example.com' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const again = await served.app.inject({
        method: 'POST',
        url: '/api/customers',
        payload: { name: 'Someone Else', email: 'katherine@example.com' },
      });
      expect(again.statusCode).toBe(422);
      expect(again.json().errors).toEqual([expect.objectContaining({ pointer: '/email' })]);
      expect(
        await served.target.query("select name from customers where email = 'katherine@example.com'"),
      ).toEqual([{ name: 'Katherine Johnson' }]);
    });
  });
}
