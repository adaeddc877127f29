import { describe, expect, it } from 'vitest';
import {
  conventionalTransitionCall,
  createStateRefusal,
  findEntity,
  loadSpec,
  machineOf,
  updateStateRefusal,
  withDefaults,
} from '../src';

// A small domain of its own: a parcel follows point 4 from "booked", and has a default and a read-only
// field with a default. The expectations are read off this text, not off the code.
const { model, issues } = loadSpec(
  `title: Parcels
product:
  summary: Parcels booked, sent and delivered.
entities:
  Parcel:
    fields:
      label: { kind: text }
      priority: { kind: integer, default: 3 }
      origin: { kind: text, default: depot, readOnly: true }
      status:
        kind: enum
        values: [booked, sent, delivered]
states:
  Parcel.status:
    initial: booked
    states:
      booked: { label: Booked }
      sent: { label: Sent }
      delivered: { label: Delivered, final: true }
    transitions:
      send: { from: [booked], to: sent }
`,
  { file: 'parcels.yaml' },
);

describe('the first steps of every write, written once in the core', () => {
  if (!model) throw new Error(`the parcels specification does not load: ${JSON.stringify(issues)}`);
  const parcel = findEntity(model, 'Parcel');
  if (!parcel) throw new Error('no Parcel');

  it('finds the machine a parcel follows, and names a transition’s conventional call', () => {
    expect(machineOf(model, parcel)?.initial).toBe('booked');
    expect(conventionalTransitionCall('Parcel', { name: 'send' })).toBe('sendParcel');
  });

  it('fills the defaults a person writes, or the read-only ones, and never overwrites a value', () => {
    expect(withDefaults(parcel, { label: 'A' })).toEqual({ label: 'A', priority: 3 });
    expect(withDefaults(parcel, { label: 'A', priority: 1 })).toEqual({ label: 'A', priority: 1 });
    expect(withDefaults(parcel, {}, true)).toEqual({ origin: 'depot' });
  });

  it('refuses a new parcel in any state but "booked", on its state field', () => {
    expect(createStateRefusal(model, parcel, { label: 'A' })).toBeUndefined();
    expect(createStateRefusal(model, parcel, { label: 'A', status: 'booked' })).toBeUndefined();
    expect(createStateRefusal(model, parcel, { label: 'A', status: 'sent' })).toEqual({
      pointer: '/status',
      code: 'rule',
      message: 'A new Parcel starts as booked; use a transition to change it.',
    });
  });

  it('refuses an update that moves the state by hand, but not one that leaves it as it is', () => {
    const old = { label: 'A', status: 'booked' };
    expect(updateStateRefusal(model, parcel, old, { label: 'B' })).toBeUndefined();
    expect(updateStateRefusal(model, parcel, old, { status: 'booked' })).toBeUndefined();
    expect(updateStateRefusal(model, parcel, old, { status: 'delivered' })).toMatchObject({
      status: 409,
      code: 'USE_A_TRANSITION',
    });
  });
});
