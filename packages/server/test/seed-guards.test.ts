import { loadSpec, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { seed } from '../src/seed/seed-store';
import { openStore } from '../src/store/open-store';

// A concert hall's bookings, a domain of our own. Its words: a booking is confirmed only for at most 900
// seats (the hall's size), and checked in only once its deposit is paid; a booking checked in or
// cancelled can no longer be edited. The seed draws seats from 1 to 2,000, so most drawn bookings could
// never have been confirmed; and a rule on edits does not forbid a checked-in booking to exist.
const HALL = `title: Riverside Hall
product: not shown
screens: not shown
errors: not shown
constants: not shown
roles: not shown
calls: not shown

entities:
  Booking:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      organiser: { kind: text }
      seats: { kind: integer }
      depositPaid: { kind: boolean }
      status: { kind: enum, values: [requested, confirmed, checkedIn, cancelled] }

states:
  Booking.status:
    initial: requested
    states:
      requested: { label: Requested }
      confirmed: { label: Confirmed }
      checkedIn: { label: Checked in, final: true }
      cancelled: { label: Cancelled, final: true }
    transitions:
      confirm:
        from: [requested]
        to: confirmed
        guard: record.seats <= 900
        guardMessage: The hall seats 900.
      checkIn:
        from: [confirmed]
        to: checkedIn
        guard: record.depositPaid == true
        guardMessage: The deposit is not paid.
      cancel: { from: [requested, confirmed], to: cancelled }

validation:
  fields:
    Booking.organiser: { required: true }
    Booking.seats: { required: true, min: 1, max: 2000 }
    Booking.depositPaid: { required: true }
  rules:
    - name: settled-is-settled
      entity: Booking
      on: [update]
      check: '!(record.status in ["checkedIn", "cancelled"])'
      message: A booking checked in or cancelled can no longer be edited.
`;

function hall(text = HALL): Model {
  const loaded = loadSpec(text, { file: 'riverside-hall.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

describe('seeded states, as point 4 and point 5 allow them', () => {
  it('are reached only past guards their records meet: no booking over 900 seats confirmed, none checked in unpaid', async () => {
    const model = hall();
    const store = await openStore({ model, url: 'sqlite::memory:' });
    try {
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      const lines: string[] = [];
      await seed(store, model, 40, (line) => lines.push(line));
      const { items } = await store.list('Booking', { filters: [], sort: [], limit: 100, withTotal: false });
      // Every drawn booking is kept: none is left out for the rule on edits.
      expect(lines).toContain('  Booking: seeded 40 records');
      expect(lines.filter((line) => line.includes('left out') || line.includes('could not meet'))).toEqual(
        [],
      );
      const byState = (state: string) => items.filter((booking) => booking.status === state);
      // Past confirm: confirmed and checked in (cancel from confirmed is not the shortest way there).
      for (const booking of [...byState('confirmed'), ...byState('checkedIn')])
        expect(booking.seats as number, JSON.stringify(booking)).toBeLessThanOrEqual(900);
      for (const booking of byState('checkedIn'))
        expect(booking.depositPaid, JSON.stringify(booking)).toBe(true);
      // The guards leave room: the seed still shows every state, and the large bookings wait as requests.
      expect(new Set(items.map((booking) => booking.status))).toEqual(
        new Set(['requested', 'confirmed', 'checkedIn', 'cancelled']),
      );
      expect(byState('requested').some((booking) => (booking.seats as number) > 900)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('holds a guard on a field named user, and leaves one on the person taking the step to the API', async () => {
    // Here a booking is confirmed by an usher (the person taking the step), and checked in only when it
    // came through the box office (its field "user", never so among the drawn web and phone bookings).
    const text = HALL.replace(
      '      organiser: { kind: text }',
      '      organiser: { kind: text }\n      user: { kind: enum, values: [web, phone] }',
    )
      .replace('guard: record.seats <= 900', "guard: user.role == 'usher'")
      .replace('guard: record.depositPaid == true', "guard: record.user == 'boxOffice'");
    const model = hall(text);
    const store = await openStore({ model, url: 'sqlite::memory:' });
    try {
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      await seed(store, model, 40, () => undefined);
      const { items } = await store.list('Booking', { filters: [], sort: [], limit: 100, withTotal: false });
      const states = new Set(items.map((booking) => booking.status));
      // Confirmed bookings are seeded (an usher could have confirmed any); none checked in.
      expect(states).toEqual(new Set(['requested', 'confirmed', 'cancelled']));
    } finally {
      await store.close();
    }
  });
});
