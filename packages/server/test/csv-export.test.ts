// A list as CSV (`Accept: text/csv` on its call): every record the role may read with the list's filters
// and sort, streamed in batches, without a field hidden from the role, and with text a spreadsheet would
// run as a formula made harmless (issue 20).

import { csvCell } from '@ninefold/model';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { EXPORT_BATCH } from '../src/csv-export';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { ADDRESS } from './support/shop-records';
import { signInAs } from './support/sign-in';

const model = exampleModel();
const databases = await testDatabases();
const PRODUCTS = EXPORT_BATCH * 2 + 17;

for (const database of databases) {
  const title = `a list exported as CSV, on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let owner: { authorization: string };
    let schema: string | undefined;

    beforeAll(async () => {
      schema = database.postgres ? uniqueSchema('csv') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store });
      owner = await signInAs(app, store, 'owner');
      for (let n = 0; n < PRODUCTS; n++) {
        const made = await store.create('Product', {
          sku: `RG-${String(n).padStart(4, '0')}`,
          // Text a spreadsheet would run, in some names.
          name: n % 500 === 0 ? `=HYPERLINK("http://evil.test?${n}")` : `Line ${n}`,
          category: n % 2 === 0 ? 'rigging' : 'paint',
          price: n + 0.5,
          stock: n % 7,
        });
        if (!made.ok) throw new Error('set-up failed: a product was not made');
      }
      const customer = await store.create('Customer', {
        name: 'Anna Berg',
        email: 'anna@example.com',
        active: true,
        creditLimit: 100_000,
      });
      if (!customer.ok) throw new Error('set-up failed: the customer was not made');
      for (const notes of ['-rush', 'plain']) {
        const order = await store.create('Order', {
          customer: customer.value.id as number,
          shippingAddress: ADDRESS,
          lines: [{ product: 1, quantity: 1, unitPrice: 5 }],
          notes,
          status: 'draft',
          attachment: { id: 'f', url: '/api/_files/f', name: 'po.pdf', type: 'application/pdf', size: 1 },
        });
        if (!order.ok) throw new Error('set-up failed: an order was not made');
      }
    });
    afterAll(async () => {
      await app?.close();
      await store?.close();
      if (schema) await dropSchema(schema);
    });

    async function exported(url: string, who: { authorization: string } = owner, extra: InjectOptions = {}) {
      const answer = await app.inject({
        url,
        ...extra,
        headers: { accept: 'text/csv', authorization: who.authorization, ...extra.headers },
      });
      const rows =
        answer.statusCode === 200
          ? (parse(answer.body, { bom: true, columns: true }) as Record<string, string>[])
          : [];
      return { answer, rows };
    }

    it('is every record, past any page size, as a download with a header row of field names', async () => {
      const { answer, rows } = await exported('/api/products?limit=5&page=3');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe('attachment; filename="products.csv"');
      // A spreadsheet reads it as UTF-8 by its byte order mark.
      expect(answer.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(rows).toHaveLength(PRODUCTS);
      expect(Object.keys(rows[0] ?? {})).toEqual([
        'id',
        'sku',
        'name',
        'category',
        'price',
        'stock',
        'description',
      ]);
      expect(new Set(rows.map((row) => row.sku)).size).toBe(PRODUCTS);
    });

    it("keeps the list's filters and sort", async () => {
      const { rows } = await exported('/api/products?category=paint&sort=-price');
      expect(rows).toHaveLength(Math.floor(PRODUCTS / 2));
      expect(rows.every((row) => row.category === 'paint')).toBe(true);
      const prices = rows.map((row) => Number(row.price));
      expect(prices).toEqual([...prices].sort((a, b) => b - a));
    });

    it('makes text a spreadsheet would run harmless, and leaves numbers and other text as they are', async () => {
      const { rows } = await exported('/api/products?sort=name');
      const formulas = rows.filter((row) => row.name?.includes('HYPERLINK'));
      expect(formulas.length).toBe(Math.ceil(PRODUCTS / 500));
      for (const row of formulas) expect(row.name?.startsWith(`'=HYPERLINK(`)).toBe(true);
      expect(rows.find((row) => row.sku === 'RG-0001')).toMatchObject({ name: 'Line 1', price: '1.5' });
      expect(csvCell(-5, 'number')).toBe('-5');
      expect(csvCell('-5', 'text')).toBe("'-5");
      expect(csvCell('2026-01-01', 'date')).toBe('2026-01-01');
      expect(csvCell({ street: '1 Quay' }, 'object')).toBe('{"street":"1 Quay"}');
    });

    it('leaves out what the role may not read: hidden fields, and records outside its grant', async () => {
      const { rows: all } = await exported('/api/orders');
      expect(all).toHaveLength(2);
      expect(Object.keys(all[0] ?? {})).toContain('attachment');
      expect(all.map((row) => row.notes).sort()).toEqual(["'-rush", 'plain']);
      // The warehouse may not see attachments; the column is not there at all.
      const warehouse = await signInAs(app, store, 'warehouse');
      const { rows: shipped } = await exported('/api/orders', warehouse);
      expect(shipped).toHaveLength(2);
      expect(Object.keys(shipped[0] ?? {})).not.toContain('attachment');
      // A customer reads only their own orders: another customer's user gets none.
      const stranger = await signInAs(app, store, 'customer', { customerId: 987654 }, 'stranger@shop.test');
      const { answer, rows: none } = await exported('/api/orders', stranger);
      expect(answer.statusCode).toBe(200);
      expect(none).toEqual([]);
      expect(answer.body.replace(/^\uFEFF/, '').split('\r\n')[0] ?? answer.body).not.toContain('ownerId');
    });

    it('answers a problem, not a file, when the request is refused', async () => {
      const anonymous = await app.inject({ url: '/api/orders', headers: { accept: 'text/csv' } });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe('NOT_SIGNED_IN');
      const badQuery = await exported('/api/products?limit=many');
      expect(badQuery.answer.statusCode).toBe(400);
      expect(badQuery.answer.json().code).toBe('INVALID_QUERY');
    });
  });
}
