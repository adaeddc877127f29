// Issue 42: a guard with its own code, rules of point 5 on a named transition, values a transition sets
// held to their field's constraints, and dates as constants, each read from the words of
// packages/web/test/fixtures/boat-hire.md (kept in Markdown and YAML, which must say the same), and the
// silent cases `check` now refuses with a position.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkTransition,
  homeScreen,
  type JsonValue,
  loadSpec,
  type Model,
  type Principal,
  planTransition,
  validateRecord,
} from '../src';

const FIXTURES = resolve(import.meta.dirname, '../../web/test/fixtures');
const NOW = new Date('2026-06-01T12:00:00Z');

function load(name: string) {
  const file = resolve(FIXTURES, name);
  return loadSpec(readFileSync(file, 'utf8'), { file: name });
}

function boatHire(): Model {
  const loaded = load('boat-hire.md');
  if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

const desk: Principal = { role: 'desk', user: { id: 'u-desk', email: 'desk@harbour.test', role: 'desk' } };

function booking(values: Record<string, JsonValue>): Record<string, JsonValue> {
  return {
    id: 1,
    skipper: 1,
    boat: 1,
    day: '2026-07-01',
    hours: 4,
    people: 2,
    status: 'requested',
    ...values,
  };
}

describe('the boat hire, in its two formats', () => {
  it('reads to one model from Markdown and from YAML, with nothing to report', () => {
    const markdown = load('boat-hire.md');
    const yaml = load('boat-hire.yaml');
    expect(markdown.issues).toEqual([]);
    expect(yaml.issues).toEqual([]);
    expect(markdown.model).toEqual(yaml.model);
  });

  it('keeps a guard’s code, and a rule on a transition apart from the writes it applies on', () => {
    const model = boatHire();
    const machine = model.states.shown ? model.states.machines[0] : undefined;
    expect(machine?.transitions.find((step) => step.name === 'confirm')?.guardCode).toBe('SEASON_OVER');
    const rules = model.validation.shown ? model.validation.rules : [];
    expect(rules.map((rule) => [rule.name, rule.on, rule.transitions])).toEqual([
      ['fits', [], ['confirm']],
      ['boat-free', [], ['confirm']],
    ]);
  });
});

describe('a transition’s own conditions', () => {
  const model = boatHire();
  const machine = model.states.shown ? model.states.machines[0] : undefined;
  if (!machine) throw new Error('the boat hire has a machine');
  const step = (name: string) => {
    const found = machine.transitions.find((transition) => transition.name === name);
    if (!found) throw new Error(name);
    return found;
  };

  it('answers a guard that does not hold with its own code and its message, the date constant filled in', () => {
    const planned = planTransition(model, machine, step('confirm'), booking({ day: '2026-10-01' }), {
      principal: desk,
      now: NOW,
    });
    expect(planned).toEqual({
      ok: false,
      refusal: expect.objectContaining({
        status: 409,
        code: 'SEASON_OVER',
        message: 'The season ends on 2026-09-30: no boat goes out after.',
      }),
    });
    // The last day of the season is in it: a date constant is compared day with day.
    expect(
      planTransition(model, machine, step('confirm'), booking({ day: '2026-09-30' }), {
        principal: desk,
        now: NOW,
      }).ok,
    ).toBe(true);
  });

  it('holds a value the transition sets to its field’s constraints, with the constraint’s own message', () => {
    const planned = planTransition(model, machine, step('extend'), booking({ status: 'out', hours: 7 }), {
      principal: desk,
      now: NOW,
    });
    expect(planned).toEqual({
      ok: false,
      refusal: expect.objectContaining({
        status: 422,
        code: 'VALIDATION_FAILED',
        // The constraint's own message, its constant filled in.
        errors: [{ pointer: '/hours', code: 'max', message: 'A boat is out for 8 hours at most.' }],
      }),
    });
    const within = planTransition(model, machine, step('extend'), booking({ status: 'out', hours: 6 }), {
      principal: desk,
      now: NOW,
    });
    expect(within).toEqual({ ok: true, change: { status: 'out', hours: 8 } });
  });

  it('does not ask a rule on a transition of an edit, nor of another transition', () => {
    // Five people in a boat of two: "fits" is on confirm only, and needs other records, so the form
    // and an edit say nothing, and cancel is not confirm.
    const crowded = booking({ people: 5, boat: 2 });
    expect(planTransition(model, machine, step('cancel'), crowded, { principal: desk, now: NOW }).ok).toBe(
      true,
    );
  });

  it('takes a guard that throws as the specification’s fault, not as "not met"', () => {
    const broken = {
      ...model,
      states: {
        ...model.states,
        machines: [
          {
            ...machine,
            transitions: machine.transitions.map((transition) =>
              transition.name === 'launch'
                ? { ...transition, guard: 'record.day <= "2026-09-30"' }
                : transition,
            ),
          },
        ],
      },
    } as Model;
    const verdict = checkTransition(
      broken,
      machine,
      { ...step('launch'), guard: 'record.day <= "2026-09-30"' },
      booking({ status: 'confirmed' }),
      { now: NOW },
    );
    expect(verdict).toEqual(expect.objectContaining({ allowed: false, reason: 'error' }));
    // A field the record does not have is an empty value, which its own checks speak for: not met.
    const empty = checkTransition(
      model,
      machine,
      step('confirm'),
      booking({ day: undefined as unknown as JsonValue }),
      { now: NOW },
    );
    expect(empty).toEqual(expect.objectContaining({ allowed: false, reason: 'guard', code: 'SEASON_OVER' }));
  });
});

describe('a field constraint’s own message', () => {
  const model = boatHire();

  it('fills its placeholders, and is not told of an empty field, which is told it is required', () => {
    const refused = validateRecord(
      model,
      'Booking',
      { skipper: 1, boat: 1, day: '2026-07-01', people: 1, hours: 9 },
      { mode: 'create' },
    );
    expect(refused.ok ? [] : refused.errors).toEqual([
      { pointer: '/hours', code: 'max', message: 'A boat is out for 8 hours at most.' },
    ]);
    const empty = validateRecord(
      model,
      'Booking',
      { skipper: 1, boat: 1, day: '2026-07-01', people: 1 },
      { mode: 'create' },
    );
    expect(empty.ok ? [] : empty.errors).toEqual([
      { pointer: '/hours', code: 'required', message: 'Hours is required.' },
    ]);
  });

  it('answers every fault of a save at once: fields and the rules that read only the record', () => {
    // A rule on create that reads only the record, beside the fixture's own constraints.
    const strict = structuredClone(model);
    if (strict.validation.shown)
      strict.validation.rules.push({
        entity: 'Booking',
        check: 'record.people <= record.hours',
        message: 'At least one hour per person.',
        field: 'people',
        on: ['create'],
      });
    const refused = validateRecord(
      strict,
      'Booking',
      { skipper: 1, day: '2026-07-01', hours: 9, people: 12 },
      { mode: 'create' },
    );
    expect(refused.ok ? [] : refused.errors.map((error) => `${error.pointer} ${error.code}`)).toEqual([
      '/boat required',
      '/hours max',
      '/people rule',
    ]);
  });
});

describe('a home of a role’s own', () => {
  const model = boatHire();

  it('is where the role lands at /, and the product’s home is everyone else’s', () => {
    expect(homeScreen(model, 'skipper')?.name).toBe('bookings');
    expect(homeScreen(model, 'desk')?.name).toBe('skippers');
    expect(homeScreen(model)?.name).toBe('skippers');
  });
});

describe('check, on what the format said wrongly in silence', () => {
  const source = readFileSync(resolve(FIXTURES, 'boat-hire.md'), 'utf8');
  const issuesOf = (text: string) => loadSpec(text, { file: 'boat-hire.md' }).issues;

  it('refuses a conversion of a fixed text that can never be evaluated, at its line', () => {
    const text = source.replace('`record.day <= SEASON_ENDS`', '`today <= timestamp("2026-09-30")`');
    const issues = issuesOf(text);
    expect(issues).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'invalid-expression',
        message: expect.stringMatching(
          /^The guard of transition "confirm".*cannot be evaluated: Timestamp\(\)/,
        ),
        source: expect.objectContaining({
          line: text.split('\n').findIndex((line) => line.includes('timestamp(')) + 1,
        }),
      }),
    ]);
  });

  it('refuses a rule on a transition the entity does not have, naming the nearest', () => {
    const text = source.replace('| OVER_CAPACITY | confirm |', '| OVER_CAPACITY | confrim |');
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'unknown-reference',
        path: ['validation', 'rules', 0, 'on'],
        hint: expect.stringContaining('confirm'),
      }),
    ]);
  });

  it('refuses a role’s home that the role may not open, which would land it on "Not allowed"', () => {
    const text = source.replace('| skipper | Skipper | bookings |', '| skipper | Skipper | skippers |');
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'invalid-value',
        path: ['roles', 'roles', 'skipper', 'home'],
        message: expect.stringContaining('which point 2 opens only to "desk"'),
      }),
    ]);
    const missing = source.replace('| skipper | Skipper | bookings |', '| skipper | Skipper | bokings |');
    expect(issuesOf(missing)).toEqual([
      expect.objectContaining({ code: 'unknown-reference', path: ['roles', 'roles', 'skipper', 'home'] }),
    ]);
  });

  it('refuses a guard code not written like the catalogue’s codes', () => {
    const text = source.replace('| SEASON_OVER | |', '| season-over | |');
    expect(issuesOf(text)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          severity: 'error',
          code: 'invalid-value',
          path: ['states', 'Booking.status', 'transitions', 'confirm', 'guardCode'],
          message: expect.stringContaining('Write it as SEASON_OVER.'),
          source: expect.objectContaining({
            line: text.split('\n').findIndex((line) => line.includes('season-over')) + 1,
          }),
        }),
      ]),
    );
  });
});
