import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ListScreen, loadSpec, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { entityCalls } from '../src/data/entity-calls';
import { columnWidth } from '../src/list/column-widths';
import { planList } from '../src/list/list-plan';
import { apiOf } from './support/load-example';

// A phone's card of a record, as point 2 of a ferry line (a domain of our own) words it: the record's
// name, its state, and the screen's `card` fields, else the first two columns that are neither.
const FILE = resolve(import.meta.dirname, '../../../e2e/fixtures/ferry-sailings.yaml');
const loaded = loadSpec(readFileSync(FILE, 'utf8'), { file: 'ferry-sailings.yaml' });
const ferry = loaded.model as Model;

function screenNamed(model: Model, name: string): ListScreen {
  const found = model.screens.shown ? model.screens.items.find((item) => item.name === name) : undefined;
  if (found?.kind !== 'list') throw new Error(`${name} is not a list screen`);
  return found;
}

function cardOf(screen: ListScreen, hidden: ReadonlySet<string> = new Set(), model = ferry) {
  const { card } = planList(model, screen, entityCalls(apiOf(model), model, screen.entity), hidden);
  return { title: card.title?.name, state: card.state?.name, fields: card.fields.map((field) => field.name) };
}

describe("a phone's card of a record", () => {
  it('loads the domain without issues', () => {
    expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  });

  it("shows the display field as the title, the state machine's field as a badge, and the screen's card fields", () => {
    expect(cardOf(screenNamed(ferry, 'sailings'))).toEqual({
      title: 'vessel',
      state: 'status',
      fields: ['crossing', 'departsAt'],
    });
  });

  it('without a card, shows the first two columns that are neither the title nor the state', () => {
    const { card: _, ...screen } = screenNamed(ferry, 'sailings');
    expect(cardOf(screen)).toEqual({ title: 'vessel', state: 'status', fields: ['crossing', 'departsAt'] });
    const reordered = { ...screen, columns: ['status', 'fare', 'vessel', 'passengers', 'crossing'] };
    expect(cardOf(reordered)).toEqual({ title: 'vessel', state: 'status', fields: ['fare', 'passengers'] });
  });

  it('has no state badge for an entity without a state machine', () => {
    expect(cardOf(screenNamed(ferry, 'harbours'))).toEqual({
      title: 'name',
      state: undefined,
      fields: ['berths', 'pilotRequired'],
    });
  });

  it('leaves out a field the role may not read, and the state when it is not a column', () => {
    expect(cardOf(screenNamed(ferry, 'sailings'), new Set(['crossing', 'status']))).toEqual({
      title: 'vessel',
      state: undefined,
      fields: ['departsAt'],
    });
  });

  it('never repeats the title or the state among the fields', () => {
    const screen = { ...screenNamed(ferry, 'sailings'), card: ['vessel', 'status', 'fare'] };
    expect(cardOf(screen).fields).toEqual(['fare']);
  });

  it('is refused when the card names a field the entity lacks', () => {
    const text = readFileSync(FILE, 'utf8').replace(
      'card: [crossing, departsAt]',
      'card: [crossing, captain]',
    );
    const broken = loadSpec(text, { file: 'ferry-sailings.yaml' });
    const errors = broken.issues.filter((issue) => issue.severity === 'error');
    expect(errors.map((issue) => issue.path.join('.'))).toEqual(['screens.sailings.card.1']);
    expect(errors[0]?.message).toContain('captain');
  });
});

describe('a column of a desk’s table', () => {
  it('is as wide as what it holds needs: the name most, then texts, dates, money, counts, yes/no', () => {
    const sailing = ferry.entities.shown
      ? ferry.entities.items.find((entity) => entity.name === 'Sailing')
      : undefined;
    const harbour = ferry.entities.shown
      ? ferry.entities.items.find((entity) => entity.name === 'Harbour')
      : undefined;
    const field = (entity: typeof sailing, name: string) => {
      const found = entity?.fields.find((candidate) => candidate.name === name);
      if (!found) throw new Error(name);
      return found;
    };
    const vessel = columnWidth(field(sailing, 'vessel'), true);
    const crossing = columnWidth(field(sailing, 'crossing'), false);
    const fare = columnWidth(field(sailing, 'fare'), false);
    const passengers = columnWidth(field(sailing, 'passengers'), false);
    const pilot = columnWidth(field(harbour, 'pilotRequired'), false);
    expect(vessel).toBeGreaterThan(crossing);
    expect(crossing).toBeGreaterThan(fare);
    expect(fare).toBeGreaterThan(passengers);
    // A yes/no column is narrow, but never narrower than its header's words.
    expect(pilot).toBeGreaterThanOrEqual('Pilot required'.length * 0.55);
  });
});
