// Generated CSV files in every encoding, separator, decimal mark, date order and line end that
// spreadsheets write, each with known bad rows (issue 40). Every good row must be stored exactly as
// meant, checked by SQL on both databases; every bad row reported with its reason and the file's own row
// number; and the client's reading of the same bytes must refuse the same rows with the same words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findEntity, readRows } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../packages/server/src/app';
import { openStore } from '../packages/server/src/store/open-store';
import type { Store } from '../packages/server/src/store/store';
import { dropSchema, PG_URL, testDatabases, uniqueSchema } from '../packages/server/test/support/databases';
import { signInAs } from '../packages/server/test/support/sign-in';
import { fileCheck, fileFormat, mappedColumns } from '../packages/web/src/list/csv-import/file-check';
import { readCsv } from '../packages/web/src/list/csv-import/read-csv';
import {
  allVariants,
  asStored,
  type GeneratedFile,
  generateFile,
  type Member,
  type Variant,
  variantName,
} from './support/csv-files';
import { openSqliteFile, rowingClub, type SqliteFile } from './support/rowing-club';

const model = rowingClub();
const member = findEntity(model, 'Member');
if (!member) throw new Error('the club has members');
const variants = allVariants();
const tagOf = (variant: Variant) =>
  variantName(variant)
    .replace(/[^a-z0-9]+/gi, '-')
    .toLowerCase();

describe('the client reads every generated file as meant', () => {
  it.each(variants.map((variant) => [variantName(variant), variant] as const))('%s', (_name, variant) => {
    const file = generateFile(variant, 'client');
    // ISO-8859-15 cannot be told from Windows-1252 by its bytes: the person chooses it.
    const read = readCsv(file.bytes, file.charset ? { encoding: 'iso-8859-15' } : {});
    if (!read.ok) throw new Error(read.message);
    expect(read.delimiter).toBe(variant.delimiter);
    const columns = mappedColumns(member, ['name', 'email', 'dues', 'boats', 'joined', 'note']);
    const detected = fileFormat(read, columns);
    expect(detected.unsure).toEqual([]);
    expect(detected.format).toEqual({ decimal: variant.decimal, dateOrder: variant.dateOrder });
    const { sendable, report } = fileCheck(model, member, read, columns, detected.format, true);
    expect(report.refused).toBe(file.bad.length);
    expectReasons(report.errors, file);
    const values = readRows(model, member, read.rows, columns, detected.format).rows.filter((row) =>
      sendable.some((sent) => sent.row === row.row),
    );
    expect(values.map((row) => row.values)).toEqual(
      file.good.map((good) => meant(asStored(good, variant.encoding))),
    );
  });
});

const databases = await testDatabases();

for (const database of databases) {
  describe.skipIf(database.skip !== undefined)(
    `the API stores every generated file as meant, on ${database.name}`,
    () => {
      let app: FastifyInstance;
      let store: Store;
      let secretary: { authorization: string };
      let schema: string | undefined;
      let dir: string | undefined;
      let sqlite: SqliteFile | undefined;
      let postgres: pg.Client | undefined;

      beforeAll(async () => {
        schema = database.postgres ? uniqueSchema('csvfiles') : undefined;
        dir = database.postgres ? undefined : mkdtempSync(join(tmpdir(), 'ninefold-csv-'));
        const url = dir ? `sqlite:${join(dir, 'club.db')}` : database.url;
        store = await openStore({ model, url, ...(schema ? { schema } : {}) });
        expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
        app = await buildApp({ model, store });
        secretary = await signInAs(app, store, 'secretary');
        // Read by SQL on a connection of its own, not through the store under test.
        if (dir) sqlite = openSqliteFile(join(dir, 'club.db'), { readonly: true });
        else {
          postgres = new pg.Client({ connectionString: PG_URL });
          await postgres.connect();
        }
      });
      afterAll(async () => {
        sqlite?.close();
        await postgres?.end();
        await app?.close();
        await store?.close();
        if (schema) await dropSchema(schema);
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      const stored = async (tag: string): Promise<Member[]> => {
        const text = `SELECT name, email, dues, boats, joined, note FROM ${schema ? `"${schema}".` : ''}"Member" WHERE email LIKE ${schema ? '$1' : '?'} ORDER BY id`;
        const rows = (
          sqlite
            ? sqlite.prepare(text).all(`%.${tag}@club.test`)
            : (await postgres?.query(text, [`%.${tag}@club.test`]))?.rows
        ) as Array<Record<string, unknown>>;
        return rows.map((row) => ({
          name: row.name as string,
          email: row.email as string,
          dues: Number(row.dues),
          boats: Number(row.boats),
          joined: row.joined as string,
          note: (row.note ?? '') as string,
        }));
      };

      // One line end per file here (the client's test above takes both): the API reads the same parser.
      const sent = variants.filter((variant, index) => (index % 2 === 0) === (variant.decimal === '.'));
      it.each(sent.map((variant) => [variantName(variant), variant] as const))(
        '%s',
        async (_name, variant) => {
          const tag = tagOf(variant);
          const file = generateFile(variant, tag);
          const answer = await app.inject({
            method: 'POST',
            url: '/api/_import/Member',
            payload: Buffer.from(file.bytes),
            headers: {
              'content-type': `text/csv${file.charset ? `; charset=${file.charset}` : ''}`,
              authorization: secretary.authorization,
            },
          });
          expect(answer.statusCode, answer.body).toBe(200);
          const report = answer.json();
          expect(report).toMatchObject({
            rows: file.rows,
            created: file.good.length,
            refused: file.bad.length,
            format: { decimal: variant.decimal, dateOrder: variant.dateOrder },
          });
          expectReasons(report.errors, file);
          expect(await stored(tag)).toEqual(file.good.map((good) => asStored(good, variant.encoding)));
        },
      );

      it('refuses, without storing anything, a Latin file that could hold ¤ or €, until its charset is named', async () => {
        const variant: Variant = {
          encoding: 'iso-8859-15',
          delimiter: ';',
          decimal: ',',
          dateOrder: 'dmy',
          eol: '\r\n',
        };
        const file = generateFile(variant, 'undeclared');
        const answer = await app.inject({
          method: 'POST',
          url: '/api/_import/Member',
          payload: Buffer.from(file.bytes),
          headers: { 'content-type': 'text/csv', authorization: secretary.authorization },
        });
        expect(answer.statusCode).toBe(400);
        expect(answer.json().detail).toMatch(
          /byte \d+ \(line \d+\) is "¤" in Windows-1252 but "€" in ISO-8859-15/,
        );
        // Declared as UTF-8, which it is not: refused with where, never stored with replacement characters.
        const wrong = await app.inject({
          method: 'POST',
          url: '/api/_import/Member',
          payload: Buffer.from(generateFile({ ...variant, encoding: 'windows-1252' }, 'undeclared').bytes),
          headers: { 'content-type': 'text/csv; charset=utf-8', authorization: secretary.authorization },
        });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json()).toMatchObject({ code: 'BAD_ENCODING' });
        expect(wrong.json().detail).toMatch(/not UTF-8 text: byte \d+ \(line 2\) is not/);
        expect(await stored('undeclared')).toEqual([]);
      });

      it('asks how numbers are written when nothing in the file tells, and reads them as told', async () => {
        const csv = 'Name;Email;Dues\nAda;ada.ambiguous@club.test;36.500\n';
        const send = (query: string) =>
          app.inject({
            method: 'POST',
            url: `/api/_import/Member${query}`,
            payload: csv,
            headers: { 'content-type': 'text/csv', authorization: secretary.authorization },
          });
        const asked = await send('');
        expect(asked.statusCode).toBe(422);
        expect(asked.json()).toMatchObject({ code: 'AMBIGUOUS_FORMAT' });
        expect(asked.json().detail).toMatch(/"36\.500" is one.*decimal=\. .*decimal=,/);
        expect(await stored('ambiguous')).toEqual([]);
        expect((await send('?decimal=,')).json()).toMatchObject({ created: 1 });
        expect((await stored('ambiguous'))[0]?.dues).toBe(36500);
      });
    },
  );
}

/** The value each field should hold, as a row is read: an empty note is no value. */
function meant(member: Member): Partial<Member> {
  const { note, ...rest } = member;
  return note === '' ? rest : member;
}

function expectReasons(errors: Array<{ row: number; message: string }>, file: GeneratedFile) {
  expect(errors.map((error) => error.row)).toEqual(file.bad.map((bad) => bad.row));
  for (const [index, bad] of file.bad.entries()) expect(errors[index]?.message).toMatch(bad.reason);
}
