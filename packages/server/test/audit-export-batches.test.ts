// The audit trail's export past its first batch: every entry once, newest first (its other tests write
// fewer entries than a batch holds).
import { readFileSync } from 'node:fs';
import { loadSpec } from '@ninefold/model';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import { signInAs } from './support/sign-in';

describe("the audit trail's export", () => {
  it('has every entry once, newest first, past its first batch of 1,000', async () => {
    const loaded = loadSpec(readFileSync(new URL('./fixtures/radio.yaml', import.meta.url), 'utf8'), {
      file: 'radio.yaml',
    });
    if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
    const store = await openStore({ model: loaded.model, url: 'sqlite::memory:' });
    try {
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      const app = await buildApp({ model: loaded.model, store });
      const { authorization } = await signInAs(app, store, 'producer', {}, 'producer@radio.test');
      const made = 1_050;
      for (let n = 1; n <= made; n++) {
        const answer = await app.inject({
          method: 'POST',
          url: '/api/programmes',
          headers: { authorization },
          payload: { title: `Programme ${n}` },
        });
        expect(answer.statusCode, answer.body).toBe(201);
      }
      const answer = await app.inject({ url: '/api/_audit', headers: { authorization, accept: 'text/csv' } });
      expect(answer.statusCode).toBe(200);
      const rows = parse(answer.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<
        Record<string, string>
      >;
      const titles = rows.filter((row) => row.field === 'title');
      expect(titles.map((row) => row.after)).toEqual(
        Array.from({ length: made }, (_, index) => `Programme ${made - index}`),
      );
      await app.close();
    } finally {
      await store.close();
    }
  }, 60_000);
});
