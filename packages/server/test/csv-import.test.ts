// The CSV import (`POST /api/_import/{Entity}`, issue 20): every row checked by the create call's own
// rules, the file's earlier rows and the database seen as the import would leave them, a dry run that
// writes nothing, matching on a unique field so a file run twice makes nothing twice, and a file the
// export wrote read back unchanged. On a domain of our own and on the shop, on both databases.

import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

function moorings(): Model {
  const text = readFileSync(new URL('./fixtures/moorings.yaml', import.meta.url), 'utf8');
  const loaded = loadSpec(text, { file: 'moorings.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

const databases = await testDatabases();
const HEADER = 'Name,Berth,Owner,Length (m),Rig,Insured,Note';

for (const database of databases) {
  const skipped = database.skip ? ` — skipped: ${database.skip}` : '';
  describe.skipIf(database.skip !== undefined)(`a CSV import, on ${database.name}${skipped}`, () => {
    let app: FastifyInstance;
    let store: Store;
    let master: { authorization: string };
    let clerk: { authorization: string };
    let schema: string | undefined;

    beforeAll(async () => {
      const model = moorings();
      schema = database.postgres ? uniqueSchema('import') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store });
      master = await signInAs(app, store, 'harbourmaster');
      clerk = await signInAs(app, store, 'clerk');
      for (const name of ['Ines Duarte', 'Tom Marsh', 'Ada Byron']) {
        if (!(await store.create('Owner', { name })).ok) throw new Error('set-up failed: an owner');
      }
      // Tom already moors one boat.
      if (!(await store.create('Boat', { name: 'Heron', berth: 'A1', owner: 2 })).ok)
        throw new Error('set-up');
    });
    afterAll(async () => {
      await app?.close();
      await store?.close();
      if (schema) await dropSchema(schema);
    });

    const send = (csv: string, query = '', who = master, extra: InjectOptions = {}) =>
      app.inject({
        method: 'POST',
        url: `/api/_import/Boat${query}`,
        payload: csv,
        ...extra,
        headers: { 'content-type': 'text/csv', authorization: who.authorization, ...extra.headers },
      });
    const boats = async () =>
      (
        await store.list('Boat', {
          filters: [],
          sort: [{ field: 'berth', direction: 'asc' }],
          limit: 100,
          withTotal: false,
        })
      ).items;

    const badFile = [
      HEADER,
      'Osprey,B2,1,9.5,Sloop,yes,first',
      'Curlew,b3,1,8,Ketch,no,', // the berth breaks its pattern
      'Tern,B2,1,7,sloop,yes,', // the same berth as row 2
      'Gannet,C1,2,12,Yawl,yes,', // no such rig
      'Puffin,C2,2,40,motor boat,maybe,', // too long, and "maybe" is no yes or no
      'Skua,C3,2,10,Motor boat,no,', // Tom's third boat: Heron (in the database) and Puffin? no: Puffin is refused
      'Kittiwake,C4,2,10,Ketch,no,', // ...so this one is the third
    ].join('\n');

    it('checks every row in a dry run, against the database and the earlier rows, and writes nothing', async () => {
      const answer = await send(badFile, '?dryRun=true');
      expect(answer.statusCode, answer.body).toBe(200);
      const report = answer.json();
      expect(report).toMatchObject({ dryRun: true, rows: 7, created: 2, refused: 5, skipped: 0, updated: 0 });
      const byRow: Record<number, Array<{ field?: string; message: string }>> = {};
      for (const error of report.errors as Array<{ row: number; field?: string; message: string }>) {
        byRow[error.row] = [...(byRow[error.row] ?? []), error];
      }
      expect(Object.keys(byRow).map(Number)).toEqual([3, 4, 5, 6, 8]);
      expect(byRow[3]?.[0]).toMatchObject({
        field: 'berth',
        message: 'A berth is a pontoon letter and a number, such as C12.',
      });
      expect(byRow[4]?.[0]).toMatchObject({
        field: 'berth',
        message: 'Berth is the same as in row 2 of this file.',
      });
      expect(byRow[5]?.[0]?.message).toBe('Rig is not one of Sloop, Ketch, Motor boat: "Yawl".');
      expect(byRow[6]?.map((error) => error.field).sort()).toEqual(['insured']);
      // Tom's boats: Heron is in the database and Skua (row 7) is checked in: the third is refused.
      expect(byRow[8]?.[0]).toMatchObject({ field: 'owner', message: 'An owner moors at most 2 boats.' });
      expect((await boats()).map((boat) => boat.name)).toEqual(['Heron']);
    });

    it('imports the good rows and reports the others, then a corrected file adds only what is new', async () => {
      const first = (await send(badFile)).json();
      expect(first).toMatchObject({ dryRun: false, created: 2, refused: 5 });
      expect((await boats()).map((boat) => boat.berth)).toEqual(['A1', 'B2', 'C3']);
      const fixed = [
        HEADER,
        'Osprey,B2,1,9.5,Sloop,yes,first',
        'Curlew,B3,1,8,Ketch,no,',
        'Tern,B4,3,7,sloop,yes,',
        'Gannet,C1,3,12,Ketch,yes,',
        'Skua,C3,2,10,Motor boat,no,',
      ].join('\n');
      // Run twice, matched on the unique berth: the rows already in are skipped, never made twice.
      for (let run = 0; run < 2; run++) {
        const report = (await send(fixed, '?match=berth')).json();
        expect(report).toMatchObject(
          run === 0 ? { created: 3, skipped: 2, refused: 0 } : { created: 0, skipped: 5, refused: 0 },
        );
      }
      expect((await boats()).map((boat) => boat.berth)).toEqual(['A1', 'B2', 'B3', 'B4', 'C1', 'C3']);
      // Or updated, when the person chooses so.
      const renamed = (await send(`Berth,Note\nB3,moved from D1`, '?match=berth&existing=update')).json();
      expect(renamed).toMatchObject({ updated: 1, created: 0, refused: 0 });
      expect((await boats()).find((boat) => boat.berth === 'B3')?.note).toBe('moved from D1');
    });

    it('reads only the columns the role may write, and says why it left the others', async () => {
      const answer = await send('Name,Berth,Yearly fee,id,Colour\nWhimbrel,D1,900,77,red', '', clerk);
      const report = answer.json();
      expect(report).toMatchObject({ created: 1, refused: 0 });
      expect(report.ignored).toEqual([
        { column: 'Yearly fee', reason: 'your role may not write it' },
        { column: 'id', reason: 'the API sets it' },
        { column: 'Colour', reason: 'it is not a field of Boat' },
      ]);
      const made = (await boats()).find((boat) => boat.berth === 'D1');
      expect(made?.fee ?? null).toBeNull();
      expect(made?.id).not.toBe(77);
    });

    it('refuses a file it cannot read, with where and why, and changes nothing', async () => {
      const before = (await boats()).length;
      const cases: Array<[string, InjectOptions | undefined, number, string, RegExp]> = [
        ['', undefined, 400, 'EMPTY_FILE', /empty/],
        [HEADER, undefined, 400, 'EMPTY_FILE', /no rows/],
        ['Name,Note\nAlbatross,x', undefined, 422, 'MISSING_COLUMNS', /no column for Berth/],
        [`${HEADER}\n"Unclosed,E1`, undefined, 400, 'BAD_CSV', /Row 2: a quote opens and never closes/],
      ];
      for (const [body, extra, status, code, detail] of cases) {
        const answer = await send(body, '', master, extra);
        expect(answer.statusCode, body).toBe(status);
        expect(answer.json().code, body).toBe(code);
        expect(answer.json().detail, body).toMatch(detail);
      }
      // A row of another width is refused alone, and so is every other one: the rest of the file is read.
      const uneven = (
        await send('Name,Berth\nA;B;C\nKittiwake\nAuk,E4,extra\nTern,E5,,', '?dryRun=true')
      ).json();
      expect(uneven).toMatchObject({ rows: 4, created: 1, refused: 3 });
      expect(uneven.errors).toEqual([
        { row: 2, message: 'Row 2 has 1 cell where the header has 2.' },
        { row: 3, message: 'Row 3 has 1 cell where the header has 2.' },
        { row: 4, message: 'Row 4 has 3 cells where the header has 2.' },
      ]);
      // Asked as CSV: the refused rows as the file had them, each with its reasons, ready to mend.
      const asFile = await send(
        'Name,Berth\nA;B;C\nKittiwake\nAuk,E4,extra\nTern,E5,,',
        '?dryRun=true',
        master,
        {
          headers: { accept: 'text/csv' },
        },
      );
      expect(asFile.headers['content-type']).toMatch(/^text\/csv/);
      expect(asFile.body).toBe(
        '\uFEFFName,Berth,Errors,\r\n' +
          'A;B;C,,Row 2 has 1 cell where the header has 2.,\r\n' +
          'Kittiwake,,Row 3 has 1 cell where the header has 2.,\r\n' +
          'Auk,E4,Row 4 has 3 cells where the header has 2.,extra',
      );
      // A 2 MB cell is refused in its row, not as a broken file.
      const huge = (await send(`Name,Berth,Note\nMollymawk,E2,${'x'.repeat(2_000_000)}`)).json();
      expect(huge.errors[0]).toMatchObject({ row: 2, field: 'note' });
      expect(huge.errors[0].message).toMatch(/at most 1,000,000/);
      const wrong = await send('Name,Berth\nA,E3', '?dryRun=perhaps&match=name&colour=red');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().detail).toMatch(
        /"colour" is not a parameter.*"dryRun" is true or false.*"match" names a field/,
      );
      expect((await boats()).length).toBe(before);
    });

    it('says a file of records with no unique field was imported before, and makes nothing twice unless asked', async () => {
      const file = 'Name\nGwen Lowe\nRaj Patel\nRaj Patel\n';
      const importOwners = (query = '', who = master) =>
        app.inject({
          method: 'POST',
          url: `/api/_import/Owner${query}`,
          payload: file,
          headers: { 'content-type': 'text/csv', authorization: who.authorization },
        });
      const owners = async (name: string) =>
        (
          await store.list('Owner', {
            filters: [{ field: 'name', op: 'eq', value: name }],
            sort: [],
            limit: 10,
            withTotal: false,
          })
        ).items.length;
      // Two identical rows in one file are one record made and one row an import made already.
      expect((await importOwners()).json()).toMatchObject({ created: 2, skipped: 1, alreadyImported: 1 });
      const check = (await importOwners('?dryRun=true')).json();
      expect(check).toMatchObject({ created: 0, skipped: 3, alreadyImported: 3, refused: 0 });
      expect((await importOwners()).json()).toMatchObject({ created: 0, skipped: 3, alreadyImported: 3 });
      expect(await owners('Raj Patel')).toBe(1);
      // Another person is not told what this one's imports made (a record point 6 may hide from them):
      // their check reads as this one's first import did, not as the repeat above.
      const deputy = await signInAs(app, store, 'harbourmaster', {}, 'deputy@harbour.test');
      expect((await importOwners('?dryRun=true', deputy)).json()).toMatchObject({
        created: 2,
        skipped: 1,
        alreadyImported: 1,
      });
      // Asked to: made again, as new records.
      expect((await importOwners('?again=true')).json()).toMatchObject({ created: 3, alreadyImported: 0 });
      expect(await owners('Raj Patel')).toBe(3);
    });

    it('takes JSON rows, keyed: a batch sent again is answered as the first time, not written twice', async () => {
      const body = {
        rows: [
          { Name: 'Fulmar', Berth: 'F1' },
          { Name: 'Shag', Berth: 'F2' },
        ],
      };
      const keyed = { headers: { 'content-type': 'application/json', 'idempotency-key': 'import-batch-1' } };
      const first = await send('', '?firstRow=10', master, { ...keyed, payload: body });
      const again = await send('', '?firstRow=10', master, { ...keyed, payload: body });
      expect(first.json()).toMatchObject({ created: 2 });
      expect(again.json()).toEqual(first.json());
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect((await boats()).filter((boat) => String(boat.berth).startsWith('F'))).toHaveLength(2);
    });

    it('refuses a role without the create grant, and an entity nobody creates', async () => {
      const visitor = await signInAs(app, store, 'visitor');
      expect((await send('Name,Berth\nA,G1', '', visitor)).statusCode).toBe(403);
      const none = await app.inject({
        method: 'POST',
        url: '/api/_import/Nothing',
        payload: 'a\nb',
        headers: { 'content-type': 'text/csv', authorization: master.authorization },
      });
      expect(none.statusCode).toBe(404);
    });
  });

  describe.skipIf(database.skip !== undefined)(
    `an export imported again, on ${database.name}${skipped}`,
    () => {
      it('leaves the data as it was, formulas, quotes and all', async () => {
        const model = exampleModel();
        const schema = database.postgres ? uniqueSchema('roundtrip') : undefined;
        const store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
        try {
          expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
          const app = await buildApp({ model, store });
          const owner = await signInAs(app, store, 'owner');
          const names = [
            '=HYPERLINK("x")',
            "'quoted",
            "'=both",
            '-5',
            '+tel',
            '@mention',
            'plain, with "quotes"',
          ];
          for (const [n, name] of names.entries()) {
            const made = await store.create('Product', {
              sku: `RT-${String(n).padStart(3, '0')}`,
              name,
              category: 'paint',
              price: 0.5 + n,
              stock: n,
              description: n === 0 ? 'line one\nline two' : null,
            });
            if (!made.ok) throw new Error('set-up failed: a product');
          }
          const read = async () =>
            (await store.list('Product', { filters: [], sort: [], limit: 100, withTotal: false })).items;
          const before = await read();
          const exported = await app.inject({
            url: '/api/products',
            headers: { accept: 'text/csv', authorization: owner.authorization },
          });
          const csv = exported.body;
          expect(parse(csv, { bom: true, columns: true })).toHaveLength(names.length);
          const report = (
            await app.inject({
              method: 'POST',
              url: '/api/_import/Product?match=sku&existing=update',
              payload: csv,
              headers: { 'content-type': 'text/csv', authorization: owner.authorization },
            })
          ).json();
          // Nothing in it differs from what is stored: nothing is written, and no version moves.
          expect(report).toMatchObject({ updated: 0, unchanged: names.length, created: 0, refused: 0 });
          expect(await read()).toEqual(before);
          const version = async (sku: string) => {
            const [found] = (
              await store.list('Product', {
                filters: [{ field: 'sku', op: 'eq', value: sku }],
                sort: [],
                limit: 1,
                withTotal: false,
              })
            ).items;
            return (await store.getVersioned('Product', found?.id as number))?.version;
          };
          expect(await version('RT-000')).toBe(1);
          await app.close();
        } finally {
          await store.close();
          if (schema) await dropSchema(schema);
        }
      });
    },
  );
}
