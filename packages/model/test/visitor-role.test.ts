// The role for people who have not signed in (issue 42), as docs/spec-format.md words it: `Signed out: yes`
// in the roles table (YAML `signedOut: true`). Its grants, screens and home apply to anyone not signed in;
// it only reads; at most one role is it. Tried on the boat hire (packages/web/test/fixtures/boat-hire.md),
// whose visitors see the fleet and the boats booked, without who booked them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  actingRole,
  checkAction,
  checkGrant,
  checkScreen,
  conditionallyShown,
  fieldAccess,
  homeScreen,
  loadSpec,
  type Model,
  presentation,
  recordAsSeen,
  toDocument,
  toMarkdown,
  transitionAccess,
  visitorRole,
} from '../src';

const FIXTURES = resolve(import.meta.dirname, '../../web/test/fixtures');
const source = readFileSync(resolve(FIXTURES, 'boat-hire.md'), 'utf8');
const issuesOf = (text: string) => loadSpec(text, { file: 'boat-hire.md' }).issues;
const lineOf = (text: string, holding: string) =>
  text.split('\n').findIndex((line) => line.includes(holding)) + 1;

function load(text: string, file = 'boat-hire.md'): Model {
  const loaded = loadSpec(text, { file });
  if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

describe('the visitor role of the boat hire', () => {
  const model = load(source);
  const nobody = {};
  const screen = (name: string) => {
    const found = model.screens.shown ? model.screens.items.find((item) => item.name === name) : undefined;
    if (!found) throw new Error(name);
    return found;
  };

  it('is read from Markdown and YAML alike, and written back by both writers', () => {
    expect(visitorRole(model)).toEqual({ name: 'visitor', label: 'Visitor', home: 'boats', signedOut: true });
    expect(load(readFileSync(resolve(FIXTURES, 'boat-hire.yaml'), 'utf8'), 'boat-hire.yaml').roles).toEqual(
      model.roles,
    );
    const markdown = toMarkdown(model);
    expect(markdown.lost, JSON.stringify(markdown.lost)).toEqual([]);
    expect(load(markdown.text).roles).toEqual(model.roles);
    expect(load(stringify(toDocument(model)), 'again.yaml').roles).toEqual(model.roles);
    expect(markdown.text).toContain('| visitor | Visitor | boats | yes |');
  });

  it('acts for anyone not signed in, and for nobody signed in', () => {
    expect(actingRole(model, nobody)).toBe('visitor');
    expect(actingRole(model, { role: 'desk', user: { id: 1 } })).toBe('desk');
    expect(homeScreen(model, actingRole(model, nobody))?.name).toBe('boats');
  });

  it('reads the fleet, and the bookings confirmed or out, without who booked them', () => {
    expect(checkScreen(model, nobody, screen('boats'))).toEqual({ allowed: true });
    expect(checkScreen(model, nobody, screen('bookings'))).toEqual({ allowed: true });
    expect(checkAction(model, nobody, 'Booking', 'read', { status: 'out' })).toEqual({ allowed: true });
    expect(checkAction(model, nobody, 'Booking', 'read', { status: 'requested' })).toMatchObject({
      allowed: false,
      reason: 'condition',
    });
    expect([...fieldAccess(model, nobody, 'Booking').hidden]).toEqual(['skipper', 'note', 'people']);
    expect(
      recordAsSeen(model, nobody, 'Booking', { id: 3, skipper: 2, note: 'late', status: 'out' }),
    ).toEqual({ id: 3, status: 'out' });
  });

  it('is asked to sign in for everything else: the skippers, a booking, any step', () => {
    expect(checkScreen(model, nobody, screen('skippers'))).toEqual({
      allowed: false,
      reason: 'not-signed-in',
      message: 'Sign in to see this page.',
    });
    expect(checkScreen(model, nobody, screen('new-booking'))).toMatchObject({ reason: 'not-signed-in' });
    for (const action of ['create', 'update', 'delete'] as const)
      expect(checkGrant(model, nobody, 'Booking', action)).toMatchObject({
        allowed: false,
        reason: 'not-signed-in',
        message: expect.stringMatching(/^Sign in to /),
      });
    const machine = model.states.shown ? model.states.machines[0] : undefined;
    const step = machine?.transitions.find((transition) => transition.name === 'launch');
    if (!machine || !step) throw new Error('the boat hire launches boats');
    expect(transitionAccess(model, nobody, machine, step, { status: 'confirmed' })).toMatchObject({
      reason: 'not-signed-in',
    });
  });

  it('does not open to someone signed in with a role of their own what that role may not', () => {
    const skipper = { role: 'skipper', user: { id: 'u1', skipperId: 1 } };
    expect(checkAction(model, skipper, 'Booking', 'read', { skipper: 2, status: 'out' })).toMatchObject({
      allowed: false,
      reason: 'condition',
    });
  });

  it('is no one without the column: not signed in is then refused everything', () => {
    const without = load(
      source.replace('| visitor | Visitor | boats | yes |', '| visitor | Visitor | boats | |'),
    );
    expect(actingRole(without, nobody)).toBeUndefined();
    expect(checkGrant(without, nobody, 'Boat', 'read')).toMatchObject({ reason: 'not-signed-in' });
  });
});

describe('a field hidden while a condition holds (Hidden while)', () => {
  const model = load(source);
  const nobody = {};
  const booking = { id: 3, skipper: 2, note: 'late', people: 4, hours: 2 };

  it('is read from both forms as the fields and the condition, and written back', () => {
    const grant = model.roles.shown
      ? model.roles.grants.find((candidate) => candidate.role === 'visitor' && candidate.entity === 'Booking')
      : undefined;
    expect(grant?.hiddenWhile).toEqual({ fields: ['people'], when: "record.status == 'confirmed'" });
    expect(toMarkdown(model).text).toContain("| skipper, note | people: `record.status == 'confirmed'` |");
  });

  it('shows the field on a record that does not meet the condition, and not on one that does', () => {
    expect(recordAsSeen(model, nobody, 'Booking', { ...booking, status: 'out' })).toEqual({
      id: 3,
      people: 4,
      hours: 2,
      status: 'out',
    });
    expect(recordAsSeen(model, nobody, 'Booking', { ...booking, status: 'confirmed' })).toEqual({
      id: 3,
      hours: 2,
      status: 'confirmed',
    });
    expect([...conditionallyShown(model, nobody, 'Booking', { ...booking, status: 'out' })]).toEqual([
      'people',
    ]);
  });

  it('presents records as the API sends them, the field decided per record', () => {
    const entity = model.entities.shown ? model.entities.items.find((e) => e.name === 'Booking') : undefined;
    if (!entity) throw new Error('the boat hire books boats');
    const shown = presentation(model, nobody, entity);
    expect(shown.fields.map((field) => field.name)).toContain('people');
    expect(shown.fields.map((field) => field.name)).not.toContain('note');
    expect(shown.present({ ...booking, status: 'confirmed' })).not.toHaveProperty('people');
    expect(shown.present({ ...booking, status: 'out' })).toHaveProperty('people', 4);
  });

  it('is refused by check when it names a field the entity lacks, or a condition that is not one', () => {
    const unknown = source.replace(
      "people: `record.status == 'confirmed'`",
      "pople: `record.status == 'confirmed'`",
    );
    expect(issuesOf(unknown)).toEqual([
      expect.objectContaining({
        code: 'unknown-reference',
        path: ['roles', 'roles', 'visitor', 'can', 'Booking', 'hiddenWhile', 'fields'],
        hint: 'did you mean "people"?',
        source: expect.objectContaining({ line: lineOf(unknown, '| visitor | Booking |') }),
      }),
    ]);
    const broken = source.replace("people: `record.status == 'confirmed'`", 'people: `record.status ==`');
    expect(issuesOf(broken)).toEqual([
      expect.objectContaining({
        code: 'invalid-expression',
        path: ['roles', 'roles', 'visitor', 'can', 'Booking', 'hiddenWhile', 'when'],
        source: expect.objectContaining({ line: lineOf(broken, '| visitor | Booking |') }),
      }),
    ]);
    const noCondition = source.replace("people: `record.status == 'confirmed'`", 'people');
    expect(issuesOf(noCondition)).toEqual([
      expect.objectContaining({
        code: 'unreadable-cell',
        message: expect.stringContaining('is not fields and a condition'),
      }),
    ]);
  });
});

describe('check, on a visitor role said wrongly', () => {
  it('refuses a second role for people not signed in, at its row', () => {
    const text = source.replace(
      '| skipper | Skipper | bookings | |',
      '| skipper | Skipper | bookings | yes |',
    );
    expect(issuesOf(text)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          severity: 'error',
          code: 'invalid-value',
          path: ['roles', 'roles', 'visitor', 'signedOut'],
          message: expect.stringContaining('only one role can be'),
          source: expect.objectContaining({ line: lineOf(text, '| visitor | Visitor |') }),
        }),
      ]),
    );
  });

  it('refuses a visitor grant of more than reading, at the row', () => {
    const text = source.replace('| visitor | Boat | read |', '| visitor | Boat | read, create |');
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'invalid-value',
        path: ['roles', 'roles', 'visitor', 'can', 'Boat', 'actions'],
        message: expect.stringContaining('who may only read'),
        source: expect.objectContaining({ line: lineOf(text, '| visitor | Boat |') }),
      }),
    ]);
  });

  it('refuses a visitor condition that reads the user, who is nobody', () => {
    const text = source.replace(
      "`record.status in ['confirmed', 'out']`",
      '`record.skipper == user.skipperId`',
    );
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'invalid-expression',
        path: ['roles', 'roles', 'visitor', 'can', 'Booking', 'where'],
        message: expect.stringContaining('a role for people not signed in'),
        source: expect.objectContaining({ line: lineOf(text, '| visitor | Booking |') }),
      }),
    ]);
  });

  it('refuses a step for the visitor role, who takes none', () => {
    const row = source.split('\n').find((line) => line.startsWith('| launch |'));
    if (!row) throw new Error('the boat hire launches boats');
    const text = source.replace(row, row.replace('| desk |', '| desk, visitor |'));
    expect(text).not.toBe(source);
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'invalid-value',
        path: ['states', 'Booking.status', 'transitions', 'launch', 'roles'],
        message: expect.stringContaining('take no step'),
      }),
    ]);
  });
});
