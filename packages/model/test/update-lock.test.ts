import { describe, expect, it } from 'vitest';
import { loadSpec, type Model, type Principal, updateLock } from '../src/index';

// A conference's talks (a domain of our own). Three rules on edits, by their words:
// - "Only a draft talk can be changed." reads the state, which no edit sets: it locks every talk past draft;
// - "A title has at most 80 characters." reads the title, which an edit can fix: it locks nothing;
// - "Keynotes are edited by the chairs." reads the track, read-only to speakers: it locks a keynote for a
//   speaker, not for a chair, whose edit may move the talk to another track.
const TALKS = `
title: Talks
product: not shown
screens: not shown
errors: not shown
constants: not shown
calls: not shown
entities:
  Talk:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
      track: { kind: text }
      status: { kind: enum, values: [draft, submitted, accepted] }
states:
  Talk.status:
    initial: draft
    states: { draft: {}, submitted: {}, accepted: {} }
    transitions:
      submit: { from: [draft], to: submitted }
      accept: { from: [submitted], to: accepted }
validation:
  rules:
    - entity: Talk
      on: [update]
      check: record.status == "draft"
      message: Only a draft talk can be changed.
    - entity: Talk
      on: [update]
      check: size(record.title) <= 80
      message: A title has at most 80 characters.
      field: title
    - entity: Talk
      on: [update]
      check: record.track != "keynote"
      message: Keynotes are edited by the chairs.
      field: track
roles:
  signIn: { kind: password, session: session }
  roles:
    speaker:
      can:
        Talk: { actions: [read, update], readOnly: [track] }
    chair:
      can:
        Talk: all
`;

const loaded = loadSpec(TALKS, { file: 'talks.yaml' });
const talks = loaded.model as Model;
const speaker: Principal = { role: 'speaker', user: { id: 's1', role: 'speaker' } };
const chair: Principal = { role: 'chair', user: { id: 'c1', role: 'chair' } };

const lockOf = (principal: Principal, record: Record<string, string | number>) =>
  updateLock(talks, principal, 'Talk', record)?.error.message;

describe('a rule that locks a record against edits', () => {
  it('loads the domain without errors', () => {
    expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  });

  it('locks a talk past draft, whose state no edit can change', () => {
    const submitted = { id: 1, title: 'Types at the edge', track: 'web', status: 'submitted' };
    expect(lockOf(speaker, submitted)).toBe('Only a draft talk can be changed.');
    expect(lockOf(chair, submitted)).toBe('Only a draft talk can be changed.');
  });

  it('does not lock a talk whose broken rule reads a field an edit can fix', () => {
    const long = { id: 2, title: 'x'.repeat(81), track: 'web', status: 'draft' };
    expect(lockOf(speaker, long)).toBeUndefined();
  });

  it('locks for a role that may not write the field the rule reads, and not for one that may', () => {
    const keynote = { id: 3, title: 'Opening', track: 'keynote', status: 'draft' };
    expect(lockOf(speaker, keynote)).toBe('Keynotes are edited by the chairs.');
    expect(lockOf(chair, keynote)).toBeUndefined();
  });

  it('does not lock on a rule that reads the record whole, where any field could matter', () => {
    const whole = {
      ...talks,
      validation: talks.validation.shown
        ? {
            ...talks.validation,
            rules: [
              { entity: 'Talk', on: ['update' as const], check: 'size(record) > 99', message: 'Never.' },
            ],
          }
        : talks.validation,
    };
    expect(
      updateLock(whole, speaker, 'Talk', { id: 6, title: 'A', track: 'web', status: 'draft' }),
    ).toBeUndefined();
  });

  it('does not lock a talk that breaks no rule', () => {
    expect(lockOf(speaker, { id: 5, title: 'Short', track: 'web', status: 'draft' })).toBeUndefined();
  });
});
