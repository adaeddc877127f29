// Bodies nested far deeper than any record get a 4xx problem, with or without an Idempotency-Key. Guards
// against the key's hash recursing over a body nested 100,000 levels deep (a 500: stack overflow).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { MAX_BODY_DEPTH } from '../src/body-depth';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';
import { signInAs } from './support/sign-in';

describe('deep request bodies', () => {
  let app: FastifyInstance;
  let store: Store;
  let authorization: string;
  beforeAll(async () => {
    const model = exampleModel('shop.md');
    store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    app = await buildApp({ model, store });
    authorization = (await signInAs(app, store, 'owner')).authorization;
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  const nested = (depth: number) => `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`;

  for (const key of [undefined, 'deep-1']) {
    it(`answers 400 BODY_TOO_DEEP for a body nested 100,000 levels ${key ? 'with' : 'without'} an Idempotency-Key`, async () => {
      const answer = await app.inject({
        method: 'POST',
        url: '/api/customers',
        headers: {
          authorization,
          'content-type': 'application/json',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        payload: nested(100_000),
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'BODY_TOO_DEEP' });
    });
  }

  it('refuses a JSON value past the limit inside a multipart field too, and takes one within it', async () => {
    const form = (value: string) =>
      `--b\r\nContent-Disposition: form-data; name="lines"\r\n\r\n${value}\r\n--b--\r\n`;
    const deep = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { authorization, 'content-type': 'multipart/form-data; boundary=b' },
      payload: form('['.repeat(MAX_BODY_DEPTH + 5) + ']'.repeat(MAX_BODY_DEPTH + 5)),
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'BODY_TOO_DEEP', detail: expect.stringContaining('lines') });
    const shallow = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { authorization, 'content-type': 'multipart/form-data; boundary=b' },
      payload: form('[]'),
    });
    expect(shallow.statusCode).toBe(422);
  });
});
