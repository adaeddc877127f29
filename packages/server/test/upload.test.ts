import { loadSpec } from '@ninefold/model';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { contentDisposition } from '../src/request-body';
import type { KyselyStore } from '../src/store/kysely-store';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const databases = await testDatabases();
const model = exampleModel();
const NOW = new Date('2026-06-01T12:00:00Z');
const MB = 1024 * 1024;

const customer = { name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000 };
const product = { sku: 'RG-1001', name: 'Mooring line', category: 'rigging', price: 24.5, stock: 10 };
const address = { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' };

type Part = string | { name: string; type: string; bytes: Uint8Array | string };

/** A multipart body serialized exactly as fetch would send a FormData. */
async function multipart(parts: Array<[string, Part]>): Promise<Pick<InjectOptions, 'payload' | 'headers'>> {
  const form = new FormData();
  for (const [name, part] of parts) {
    if (typeof part === 'string') form.append(name, part);
    else form.append(name, new Blob([part.bytes], { type: part.type }), part.name);
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

for (const database of databases) {
  const title = `uploads on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    /** The shop's owner may do everything: these tests are about uploads, not permissions. */
    let owner: { authorization: string };
    const send = (options: InjectOptions) =>
      app.inject({ ...options, headers: { authorization: owner.authorization, ...options.headers } });

    beforeEach(async () => {
      schema = database.postgres ? uniqueSchema('upload') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store, now: () => NOW });
      owner = await signInAs(app, store, 'owner');
    });
    afterEach(async () => {
      await app.close();
      await store.close();
      if (schema) await dropSchema(schema);
    });

    /** Stored files, to prove a refused write kept no bytes. */
    async function fileCount(): Promise<number> {
      await store.getFile('00000000-0000-0000-0000-000000000000'); // makes the table if no upload did
      const table = schema ? sql.id(schema, '_ninefold_files') : sql.id('_ninefold_files');
      const result = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${table}`.execute(
        (store as KyselyStore).kysely,
      );
      return Number(result.rows[0]?.n);
    }

    async function references() {
      const c = (await send({ method: 'POST', url: '/api/customers', payload: customer })).json();
      const p = (await send({ method: 'POST', url: '/api/products', payload: product })).json();
      return { customer: String(c.id), product: p.id as number };
    }

    const orderParts = (ids: { customer: string; product: number }, quantity = 2): Array<[string, Part]> => [
      ['customer', ids.customer],
      ['shippingAddress', JSON.stringify(address)],
      ['lines', JSON.stringify([{ product: ids.product, quantity, unitPrice: 24.5 }])],
      ['notes', 'Ring the *bell*.'],
    ];

    it('stores a file part and serves it back as a download of its own type', async () => {
      const ids = await references();
      const answer = await send({
        method: 'POST',
        url: '/api/orders',
        ...(await multipart([
          ...orderParts(ids),
          [
            'attachment',
            { name: 'Bestellung Nr 7 – Müller.pdf', type: 'application/pdf', bytes: '%PDF-1.4 order' },
          ],
        ])),
      });
      expect(answer.statusCode).toBe(201);
      const order = answer.json();
      // Text parts were read back by each field's kind: a reference number, JSON objects and lists.
      expect(order).toMatchObject({
        customer: Number(ids.customer),
        shippingAddress: address,
        lines: [{ product: ids.product, quantity: 2, unitPrice: 24.5 }],
        notes: 'Ring the *bell*.',
        total: 49,
        status: 'draft',
        attachment: { name: 'Bestellung Nr 7 – Müller.pdf', type: 'application/pdf', size: 14 },
      });
      const { id, url } = order.attachment;
      expect(url).toBe(`/api/_files/${id}`);
      expect((await send({ url: `/api/orders/${order.id}` })).json().attachment).toEqual(order.attachment);

      const download = await send({ url });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('%PDF-1.4 order');
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="Bestellung Nr 7 _ M_ller.pdf"; filename*=UTF-8''${encodeURIComponent('Bestellung Nr 7 – Müller.pdf')}`,
      );
      expect(download.headers['content-security-policy']).toContain('sandbox');
    });

    it('refuses a file over the size bound of point 5 with a field error, and keeps no bytes', async () => {
      const ids = await references();
      const big = new Uint8Array(5 * MB + 10);
      const answer = await send({
        method: 'POST',
        url: '/api/orders',
        ...(await multipart([
          ...orderParts(ids),
          ['attachment', { name: 'scan.png', type: 'image/png', bytes: big }],
        ])),
      });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors).toEqual([
        expect.objectContaining({ pointer: '/attachment', code: 'max' }),
      ]);
      expect(await fileCount()).toBe(0);
      expect((await send({ url: '/api/orders' })).json().total).toBe(0);
    });

    it('refuses a type the field does not accept, and text parts that do not fit, with pointers', async () => {
      const ids = await references();
      const answer = await send({
        method: 'POST',
        url: '/api/orders',
        ...(await multipart([
          ...orderParts(ids, 0),
          ['attachment', { name: 'page.html', type: 'text/html', bytes: '<script>alert(1)</script>' }],
        ])),
      });
      expect(answer.statusCode).toBe(422);
      const pointers = answer.json().errors.map((error: { pointer: string }) => error.pointer);
      expect(pointers.sort()).toEqual(['/attachment', '/lines/0/quantity']);
      expect(await fileCount()).toBe(0);

      const wrongType = await send({
        method: 'POST',
        url: '/api/orders',
        ...(await multipart([
          ['customer', 'abc'],
          ['lines', '[not json'],
        ])),
      });
      expect(wrongType.statusCode).toBe(422);
      expect(
        wrongType
          .json()
          .errors.map((error: { pointer: string }) => error.pointer)
          .sort(),
      ).toEqual(['/customer', '/lines']);
    });

    it('updates with a new file under If-Match; a stale version keeps no bytes', async () => {
      const ids = await references();
      const created = await send({
        method: 'POST',
        url: '/api/orders',
        ...(await multipart(orderParts(ids))),
      });
      expect(created.statusCode).toBe(201);
      const order = created.json();
      expect(order.attachment).toBeUndefined();
      const file = { name: 'po.png', type: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) };

      const staleBody = await multipart([['attachment', file]]);
      const stale = await send({
        method: 'PATCH',
        url: `/api/orders/${order.id}`,
        payload: staleBody.payload,
        headers: { ...staleBody.headers, 'if-match': '"7"' },
      });
      expect(stale.statusCode).toBe(412);
      expect(await fileCount()).toBe(0);

      const body = await multipart([
        ['attachment', file],
        ['notes', ''],
      ]);
      const updated = await send({
        method: 'PATCH',
        url: `/api/orders/${order.id}`,
        payload: body.payload,
        headers: { ...body.headers, 'if-match': created.headers.etag as string },
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.headers.etag).toBe('"2"');
      // An empty text part clears the field, as null does in JSON.
      expect(updated.json()).not.toHaveProperty('notes');
      expect(updated.json().attachment).toMatchObject({ name: 'po.png', type: 'image/png', size: 4 });
      const download = await send({ url: updated.json().attachment.url });
      expect([...download.rawPayload]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      expect(await fileCount()).toBe(1);
    });

    it('still takes JSON on a multipart call, and only JSON on a JSON call', async () => {
      const ids = await references();
      const json = await send({
        method: 'POST',
        url: '/api/orders',
        payload: {
          customer: Number(ids.customer),
          lines: [{ product: ids.product, quantity: 1, unitPrice: 1 }],
        },
      });
      expect(json.statusCode).toBe(201);

      const asMultipart = await send({
        method: 'POST',
        url: '/api/customers',
        ...(await multipart([
          ['name', 'Bo'],
          ['email', 'bo@example.com'],
        ])),
      });
      expect(asMultipart.statusCode).toBe(415);
      expect(asMultipart.json()).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        detail: 'Send the body as application/json.',
      });
      const asForm = await send({
        method: 'POST',
        url: '/api/customers',
        payload: 'name=Bo&email=bo%40example.com',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(asForm.statusCode).toBe(415);
      expect((await send({ url: '/api/customers' })).json().total).toBe(1);
    });

    it('refuses a field given twice, a broken body, and an unknown file, as problems', async () => {
      const twice = await send({
        method: 'POST',
        url: '/api/orders',
        ...(await multipart([
          ['notes', 'a'],
          ['notes', 'b'],
        ])),
      });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().code).toBe('DUPLICATE_FIELD');

      const broken = await send({
        method: 'POST',
        url: '/api/orders',
        payload: '--x\r\nContent-Disposition: form-data; name="notes"\r\n\r\nunterminated',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.headers['content-type']).toContain('application/problem+json');

      const noBoundary = await send({
        method: 'POST',
        url: '/api/orders',
        payload: 'x',
        headers: { 'content-type': 'multipart/form-data' },
      });
      expect(noBoundary.statusCode).toBe(400);

      const unknown = await send({ url: '/api/_files/00000000-0000-0000-0000-000000000000' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('NOT_FOUND');
    });

    it('keeps no bytes of a file sent for a field that takes none', async () => {
      const ids = await references();
      const answer = await send({
        method: 'POST',
        url: '/api/orders',
        ...(await multipart([
          ...orderParts(ids).filter(([name]) => name !== 'notes'),
          ['notes', { name: 'notes.txt', type: 'text/plain', bytes: 'hello' }],
        ])),
      });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors).toEqual([expect.objectContaining({ pointer: '/notes' })]);
      expect(await fileCount()).toBe(0);
    });
  });
}

describe('the Content-Disposition of a stored file', () => {
  it('cannot be broken out of by the name the client gave', () => {
    expect(contentDisposition('a"b\\c\r\nSet-Cookie: x=1;.html')).toBe(
      `attachment; filename="a_b_c__Set-Cookie: x=1;.html"; filename*=UTF-8''${encodeURIComponent('a"b\\c\r\nSet-Cookie: x=1;.html')}`,
    );
  });
});

describe('a call encoded as a form', () => {
  it('takes application/x-www-form-urlencoded, with text read back by kind', async () => {
    const result = loadSpec(
      `title: Notes
entities:
  Note:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
      rank: { kind: integer }
      pinned: { kind: boolean }
      tags: { kind: list, of: { kind: text } }
calls:
  operations:
    createNote: { method: POST, path: /notes, purpose: create, entity: Note, body: { entity: Note, encoding: form }, response: { shape: one } }
`,
      { file: 'form.yaml' },
    );
    if (!result.model) throw new Error(JSON.stringify(result.issues));
    const formModel = result.model;
    const store = await openStore({ model: formModel, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({ model: formModel, store });
    try {
      const created = await app.inject({
        method: 'POST',
        url: '/api/notes',
        payload: new URLSearchParams({
          title: 'Hello',
          rank: '3',
          pinned: 'true',
          tags: '["a","b"]',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ id: 1, title: 'Hello', rank: 3, pinned: true, tags: ['a', 'b'] });

      const bad = await app.inject({
        method: 'POST',
        url: '/api/notes',
        payload: 'title=x&rank=three',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual([expect.objectContaining({ pointer: '/rank', code: 'type' })]);

      // No file field anywhere: no files route is served.
      expect(
        (await app.inject({ url: '/api/_files/00000000-0000-0000-0000-000000000000' })).json().code,
      ).toBe('NO_SUCH_CALL');
    } finally {
      await app.close();
      await store.close();
    }
  });
});
