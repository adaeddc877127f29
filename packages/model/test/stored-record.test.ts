// A record at rest (seeded, or read back as stored) is held to what it must always be: its fields'
// checks and the rules on both create and update, not a rule only its edits or its creation are held to.
import { describe, expect, it } from 'vitest';
import { loadSpec, type Model, type RecordReader, storedRecordErrors, storedRecordRuleErrors } from '../src';

// A ferry line of our own: a sailing's fare is never negative (a field bound); its crossing takes at
// least 10 minutes (a rule on create and update); a departed sailing can no longer be changed (edits
// only); a new sailing is scheduled (creation only). Of the rules that read the other sailings: at most
// 3 are scheduled at once (always), and sailings are edited only before the first departs (edits only).
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
    - name: few-scheduled
      entity: Sailing
      check: count(Sailing, s, s.status == "scheduled") <= 3
      message: At most 3 sailings are scheduled at once.
    - name: edits-while-quiet
      entity: Sailing
      on: [update]
      check: count(Sailing, s, s.status == "departed") == 0
      message: Sailings are edited only before the first departs.
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

  it('is held to the rules that read other records on create and on update, not to those on edits only', async () => {
    // Five sailings of each state, as far as the rules can tell.
    const asked: string[] = [];
    const reader: RecordReader = {
      aggregate: (query) => {
        asked.push(query.entity);
        return 5;
      },
      lookup: () => undefined,
    };
    const sailing = { id: 4, fare: 12, minutes: 25, status: 'departed' };
    const errors = await storedRecordRuleErrors(ferry(), 'Sailing', sailing, { reader });
    expect(errors.map((error) => error.message)).toEqual(['At most 3 sailings are scheduled at once.']);
    expect(asked.length).toBeGreaterThan(0);
    // The rules the record's fields break are storedRecordErrors', not these.
    expect(storedRecordErrors(ferry(), 'Sailing', sailing)).toEqual([]);
  });
});
