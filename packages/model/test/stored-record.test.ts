// A record at rest (seeded, or read back as stored) is held to what it must always be: its fields'
// checks and the rules on both create and update, not a rule only its edits or its creation are held to.
import { describe, expect, it } from 'vitest';
import { loadSpec, type Model, storedRecordErrors } from '../src';

// A ferry line of our own: a sailing's fare is never negative (a field bound); its crossing takes at
// least 10 minutes (a rule on create and update); a departed sailing can no longer be changed (edits
// only); a new sailing is scheduled (creation only).
const FERRY = `title: Fjord Ferries
product: not shown
screens: not shown
errors: not shown
constants: not shown
roles: not shown
calls: not shown
states: not shown

entities:
  Sailing:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      fare: { kind: number }
      minutes: { kind: integer }
      status: { kind: enum, values: [scheduled, departed] }

validation:
  fields:
    Sailing.fare: { required: true, min: 0 }
  rules:
    - name: long-enough
      entity: Sailing
      on: [create, update]
      field: minutes
      check: record.minutes >= 10
      message: A crossing takes at least 10 minutes.
    - name: departed-is-departed
      entity: Sailing
      on: [update]
      check: record.status != "departed"
      message: A departed sailing can no longer be changed.
    - name: new-is-scheduled
      entity: Sailing
      on: [create]
      check: record.status == "scheduled"
      message: A new sailing is scheduled.
`;

function ferry(): Model {
  const loaded = loadSpec(FERRY, { file: 'fjord-ferries.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

describe('a record at rest', () => {
  it('is not refused for a rule only edits or creation are held to, nor for its read-only key', () => {
    expect(
      storedRecordErrors(ferry(), 'Sailing', { id: 4, fare: 12, minutes: 25, status: 'departed' }),
    ).toEqual([]);
  });

  it('is refused for its field checks and for the rules held on create and on update, each once', () => {
    const errors = storedRecordErrors(ferry(), 'Sailing', {
      id: 5,
      fare: -1,
      minutes: 5,
      status: 'departed',
    });
    expect(errors.map((error) => [error.pointer, error.code, error.message])).toEqual([
      ['/fare', 'min', expect.stringMatching(/at least 0/)],
      ['/minutes', 'rule', 'A crossing takes at least 10 minutes.'],
    ]);
    expect(storedRecordErrors(ferry(), 'Sailing', { id: 6, minutes: 30, status: 'scheduled' })).toEqual([
      expect.objectContaining({ pointer: '/fare', code: 'required' }),
    ]);
  });

  it('names an entity the model does not have', () => {
    expect(storedRecordErrors(ferry(), 'Harbour', {})).toEqual([
      { pointer: '', code: 'type', message: 'Unknown kind of record.' },
    ]);
  });
});
