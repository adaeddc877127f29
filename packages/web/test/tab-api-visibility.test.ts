// The playground's API in the tab keeps what point 6 hides as the prototype API does, on the boat hire
// (fixtures/boat-hire.md): a visitor's search never looks in the notes hidden from it (finding a booking
// by a word of its note would tell the word), and the people aboard show only on a booking that is out.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ApiDescription, describeApi, loadSpec } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { createTabApi } from '../src/playground/tab-api';
import { demoPrincipal } from '../src/playground/tab-people';

function boatHire() {
  const text = readFileSync(resolve(import.meta.dirname, 'fixtures/boat-hire.md'), 'utf8');
  const loaded = loadSpec(text, { file: 'boat-hire.md' });
  if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

describe('the tab’s API, for a visitor of the boat hire', () => {
  const model = boatHire();
  const described = describeApi(model);
  // The bookings list searches its text fields (`q`), as a list call of point 7 may say.
  const api = {
    ...described,
    base: '/api',
    calls: described.calls.map((call) =>
      call.entity === 'Booking' && call.purpose === 'list' ? { ...call, search: { param: 'q' } } : call,
    ),
  } as ApiDescription;
  const seed = {
    Skipper: [{ id: 1, name: 'Grace', email: 'grace@harbour.test' }],
    Boat: [{ id: 1, name: 'Heron', kind: 'sail', seats: 6 }],
    Booking: [
      {
        id: 1,
        skipper: 1,
        boat: 1,
        day: '2026-07-01',
        hours: 2,
        people: 3,
        status: 'out',
        note: 'lighthouse run',
      },
      {
        id: 2,
        skipper: 1,
        boat: 1,
        day: '2026-07-02',
        hours: 2,
        people: 4,
        status: 'confirmed',
        note: 'lighthouse',
      },
    ],
  };

  it('searches only where the role may read, as the prototype API does', async () => {
    const call = api.calls.find(
      (candidate) => candidate.entity === 'Booking' && candidate.purpose === 'list',
    );
    expect(call?.search, 'the bookings list searches').toBeDefined();
    const asked = {
      entity: 'Booking',
      filters: [],
      sort: [],
      page: { style: 'none' as const },
      search: 'lighthouse',
    };
    const visitor = createTabApi(model, api, seed, { principal: () => ({}) });
    expect((await visitor.list(asked)).items).toEqual([]);
    const desk = createTabApi(model, api, seed, { principal: () => demoPrincipal(model, 'desk', seed) });
    expect((await desk.list(asked)).items.map((booking) => booking.id).sort()).toEqual([1, 2]);
  });

  it('shows the people aboard only on a booking that is out, never the skipper or the note', async () => {
    const visitor = createTabApi(model, api, seed, { principal: () => ({}) });
    const page = await visitor.list({ entity: 'Booking', filters: [], sort: [], page: { style: 'none' } });
    const byId = new Map(page.items.map((booking) => [booking.id, booking]));
    expect(byId.get(1)).toMatchObject({ people: 3, status: 'out' });
    expect(byId.get(2)).not.toHaveProperty('people');
    for (const booking of page.items) {
      expect(booking).not.toHaveProperty('skipper');
      expect(booking).not.toHaveProperty('note');
    }
  });
});
