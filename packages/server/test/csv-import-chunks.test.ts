// The CSV import writes its rows in chunks under one savepoint on PostgreSQL, and writes a chunk again row
// by row when one of its rows is refused (csv-import.ts); SQLite gives each row its own savepoint, and is
// held to the same oracle. Here, on a seed bank of our own, rows are refused at write
// time at the edges of chunks and inside them: a code a packet in the database has already (unique), and
// the fourth and fifth packet of a variety (a rule that counts the file's earlier rows as written). The
// oracle is the specification's two sentences: every other row is stored once, each refused row is left
// out alone, and the import's memory of what it made holds only what it stored.
import { loadSpec, type Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const SPEC = `
title: Hillside Seed Bank
product: not shown
screens: not shown
states: not shown
errors: not shown

entities:
  Packet:
    key: id
    display: code
    fields:
      id: { kind: integer, readOnly: true }
      code: { kind: text }
      variety: { kind: text }
      grams: { kind: number }

validation:
  fields:
    Packet.code: { required: true, unique: true }
    Packet.variety: { required: true }
  rules:
    - name: three-of-a-variety
      entity: Packet
      check: count(Packet, p, p.variety == record.variety && (!has(record.id) || p.id != record.id)) < MAX_PACKETS
      message: A variety is kept in at most {MAX_PACKETS} packets.
      field: variety
      code: TOO_MANY_PACKETS

constants:
  MAX_PACKETS: { value: 3, unit: packets, meaning: The most packets of one variety the bank keeps. }

roles:
  signIn: { kind: password, call: signIn }
  roles:
    keeper:
      label: Keeper
      can: { Packet: all }

calls:
  operations:
    signIn: { method: POST, path: /auth/sign-in, purpose: sign-in }
    listPackets: { method: GET, path: /packets, purpose: list, entity: Packet, response: { shape: array } }
    createPacket: { method: POST, path: /packets, purpose: create, entity: Packet, body: Packet, response: { shape: one } }
`;

function seedBank(): Model {
  const loaded = loadSpec(SPEC, { file: 'seed-bank.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

const ROWS = 1000;
/** Codes the database holds before the import: rows at a chunk's first, last and inner places. */
const TAKEN = [1, 64, 65, 300, 1000];
/** Rows of one variety: the first three are kept, the fourth and fifth refused. */
const SAME_VARIETY = [500, 501, 502, 503, 504];
const code = (index: number) => `P-${String(index).padStart(4, '0')}`;

/** Row `index` of the file (1-based, so the file's row number is index + 1). */
function file(): string {
  const lines = ['code,variety,grams'];
  for (let index = 1; index <= ROWS; index++) {
    const variety = SAME_VARIETY.includes(index) ? 'Rose de Berne' : `Variety ${index}`;
    lines.push(`${code(index)},${variety},${index}`);
  }
  return lines.join('\n');
}

const databases = await testDatabases();

for (const database of databases) {
  const skipped = database.skip ? ` — skipped: ${database.skip}` : '';
  describe.skipIf(database.skip !== undefined)(`an import in chunks, on ${database.name}${skipped}`, () => {
    let app: FastifyInstance;
    let store: Store;
    let keeper: { authorization: string };
    let schema: string | undefined;

    beforeAll(async () => {
      const model = seedBank();
      schema = database.postgres ? uniqueSchema('chunks') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store });
      keeper = await signInAs(app, store, 'keeper');
      for (const index of TAKEN) {
        const made = await store.create('Packet', { code: code(index), variety: 'Old stock', grams: 0 });
        if (!made.ok) throw new Error('set-up failed: a packet');
      }
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await store?.close();
      if (schema) await dropSchema(schema);
    });

    const send = (query = '') =>
      app.inject({
        method: 'POST',
        url: `/api/_import/Packet${query}`,
        payload: file(),
        headers: { 'content-type': 'text/csv', authorization: keeper.authorization },
      });
    const packets = async () =>
      (await store.list('Packet', { filters: [], sort: [], limit: 5000, withTotal: false })).items;
    const refusedRows = (report: { errors: Array<{ row: number }> }) => [
      ...new Set(report.errors.map((error) => error.row - 1)),
    ];

    it('leaves out exactly the refused rows and stores every other row once', async () => {
      const dry = await send('?dryRun=true');
      expect(dry.statusCode, dry.body).toBe(200);
      const answer = await send();
      expect(answer.statusCode, answer.body).toBe(200);
      const report = answer.json();
      const refused = [...TAKEN, 503, 504].sort((a, b) => a - b);
      expect(report).toMatchObject({ rows: ROWS, created: ROWS - refused.length, refused: refused.length });
      expect(refusedRows(report)).toEqual(refused);
      expect(report.errors.filter((error: { row: number }) => SAME_VARIETY.includes(error.row - 1))).toEqual([
        { row: 504, field: 'variety', message: 'A variety is kept in at most 3 packets.' },
        { row: 505, field: 'variety', message: 'A variety is kept in at most 3 packets.' },
      ]);
      // The dry run saw the same, and wrote nothing of its own.
      expect({ ...dry.json(), dryRun: false }).toEqual(report);

      const stored = await packets();
      expect(stored).toHaveLength(TAKEN.length + ROWS - refused.length);
      const byCode = new Map<string, Array<Record<string, unknown>>>();
      for (const packet of stored)
        byCode.set(String(packet.code), [...(byCode.get(String(packet.code)) ?? []), packet]);
      for (let index = 1; index <= ROWS; index++) {
        const found = byCode.get(code(index)) ?? [];
        expect(found, code(index)).toHaveLength(refused.includes(index) && !TAKEN.includes(index) ? 0 : 1);
        // A taken code keeps the packet the database had.
        if (TAKEN.includes(index)) expect(found[0]).toMatchObject({ variety: 'Old stock', grams: 0 });
      }
      expect(stored.filter((packet) => packet.variety === 'Rose de Berne')).toHaveLength(3);
    });

    it('remembers only what it stored: the same file again makes nothing new', async () => {
      const answer = await send();
      expect(answer.statusCode, answer.body).toBe(200);
      const report = answer.json();
      // The stored rows are known by their content; the refused ones are refused again, for the same reasons.
      expect(report).toMatchObject({ created: 0, alreadyImported: ROWS - 7, skipped: ROWS - 7, refused: 7 });
      expect(refusedRows(report)).toEqual([...TAKEN, 503, 504].sort((a, b) => a - b));
      expect(await packets()).toHaveLength(TAKEN.length + ROWS - 7);
    });
  });
}
