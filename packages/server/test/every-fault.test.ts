// Every fault of a save in one answer (issue 42): a person who fixes one thing should not save to meet the
// next. On the boat hire (packages/web/test/fixtures/boat-hire.md), with one rule more that reads only the
// record, a create with three faults of three kinds (a required field left out, a bound broken, a rule
// broken) is one 422 with three errors, each at its field, and nothing is stored.
import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import { signInAs } from './support/sign-in';

function boatHire(): Model {
  const loaded = loadSpec(
    readFileSync(new URL('../../web/test/fixtures/boat-hire.md', import.meta.url), 'utf8'),
    {
      file: 'boat-hire.md',
    },
  );
  if (!loaded.model?.validation.shown) throw new Error(JSON.stringify(loaded.issues));
  loaded.model.validation.rules.push({
    entity: 'Booking',
    check: 'record.people <= record.hours * 2',
    message: 'At most two people an hour.',
    field: 'people',
    on: ['create'],
  });
  return loaded.model;
}

describe('a save with three faults', () => {
  it('is answered with all three at once, each at its field', async () => {
    const model = boatHire();
    const store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({ model, store, liveUpdates: false });
    try {
      const skipper = await store.create('Skipper', { name: 'Grace', email: 'grace@harbour.test' });
      expect(skipper.ok).toBe(true);
      const desk = await signInAs(app, store, 'desk', {}, 'desk@harbour.test');
      const answer = await app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers: { authorization: desk.authorization },
        // No boat; nine hours where eight is the most; twenty people for nine hours.
        payload: { skipper: skipper.ok ? skipper.value.id : 0, day: '2026-07-01', hours: 9, people: 20 },
      });
      expect(answer.statusCode, answer.body).toBe(422);
      const errors = (answer.json() as { errors: Array<{ pointer: string; detail: string }> }).errors;
      expect(errors.map((error) => error.pointer).sort()).toEqual(['/boat', '/hours', '/people']);
      expect(errors.find((error) => error.pointer === '/hours')?.detail).toBe(
        'A boat is out for 8 hours at most.',
      );
      expect(errors.find((error) => error.pointer === '/people')?.detail).toBe('At most two people an hour.');
      const stored = await store.list('Booking', {
        filters: [],
        sort: [],
        limit: 10,
        offset: 0,
        withTotal: true,
      });
      expect(stored.total).toBe(0);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
