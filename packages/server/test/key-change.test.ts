// A record's key names it: an update that sends another key is refused on that field, as a 422 the
// person can read, never a server error or a record moved under another name.
import { loadSpec } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { pointsSaid } from '../../../test/support/points-said';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';

const SPEC = pointsSaid(`title: Parts
entities:
  Part:
    key: sku
    fields:
      sku: { kind: text }
      name: { kind: text }
`);

describe('changing a key', () => {
  it('is refused at the key field, and the record keeps its key', async () => {
    const model = loadSpec(SPEC, { file: 'parts.yaml' }).model;
    if (!model) throw new Error('the specification did not load');
    const store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({ model, store });
    try {
      expect(
        (await app.inject({ method: 'POST', url: '/api/parts', payload: { sku: 'SP-1', name: 'Plug' } }))
          .statusCode,
      ).toBe(201);
      const renamed = await app.inject({
        method: 'PATCH',
        url: '/api/parts/SP-1',
        headers: { 'if-match': '"1"' },
        payload: { sku: 'SP-2' },
      });
      expect(renamed.statusCode).toBe(422);
      expect(renamed.json().errors).toEqual([
        expect.objectContaining({ pointer: '/sku', code: 'read-only' }),
      ]);
      const same = await app.inject({
        method: 'PATCH',
        url: '/api/parts/SP-1',
        headers: { 'if-match': '"1"' },
        payload: { sku: 'SP-1', name: 'Spark plug' },
      });
      expect(same.statusCode).toBe(200);
      expect((await app.inject({ url: '/api/parts/SP-1' })).json()).toMatchObject({
        sku: 'SP-1',
        name: 'Spark plug',
      });
      expect((await app.inject({ url: '/api/parts/SP-2' })).statusCode).toBe(404);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
