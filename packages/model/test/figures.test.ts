// A dashboard's figures (point 2), on the community garden of fixtures/garden.yaml in packages/server:
// read from YAML and Markdown alike, written back, every way to get one wrong refused with a reason, and
// the shaping of groups that the prototype API and an in-memory store share.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load';
import { toMarkdown } from '../src/markdown/write';
import type { DashboardScreen, Figure } from '../src/model';
import { fittingPeriod, groupRecords, periodStart, shapeFigure } from '../src/rules/figures';

const GARDEN = readFileSync(new URL('../../server/test/fixtures/garden.yaml', import.meta.url), 'utf8');

function home(text: string, file: string): DashboardScreen | undefined {
  const loaded = loadSpec(text, { file });
  expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  const screens = loaded.model?.screens;
  return screens?.shown ? (screens.items.find((s) => s.name === 'home') as DashboardScreen) : undefined;
}

/** The garden with its first figure replaced by this one (YAML flow map). */
function errorsWith(figure: string): string[] {
  const text = GARDEN.replace(/ {6}harvests: \{[^\n]*\}/, `      odd: ${figure}`);
  expect(text).not.toBe(GARDEN);
  return loadSpec(text, { file: 'garden.yaml' })
    .issues.filter((issue) => issue.severity === 'error')
    .map((issue) => issue.message);
}

describe('a dashboard figure', () => {
  it('is read from YAML and Markdown alike, charts chosen by default, and written back', () => {
    const yaml = home(GARDEN, 'garden.yaml');
    expect(yaml?.figures.map((figure) => [figure.name, figure.chart])).toEqual([
      ['harvests', 'figure'],
      ['weight', 'figure'],
      ['heavy', 'figure'],
      ['byCrop', 'donut'],
      ['weightByCrop', 'bar'],
      ['averageByPlot', 'bar'],
      ['organic', 'bar'],
      ['perWeek', 'line'],
      ['perDay', 'line'],
      ['perMonth', 'line'],
    ]);
    const loaded = loadSpec(GARDEN, { file: 'garden.yaml' });
    const markdown = toMarkdown(loaded.model as NonNullable<typeof loaded.model>);
    expect(markdown.lost).toEqual([]);
    expect(markdown.text).toMatch(/\| Figure \| Dashboard \|/);
    expect(home(markdown.text, 'garden.md')?.figures).toEqual(yaml?.figures);
  });

  it('in Markdown goes to the dashboard its row names, and is refused where it names none', () => {
    const loaded = loadSpec(GARDEN, { file: 'garden.yaml' });
    const markdown = toMarkdown(loaded.model as NonNullable<typeof loaded.model>).text;
    const wrong = markdown.replace(/\| harvests \| home \|/, '| harvests | nowhere |');
    expect(wrong).not.toBe(markdown);
    const issues = loadSpec(wrong, { file: 'garden.md' }).issues;
    const issue = issues.find((candidate) =>
      /Figure "harvests" is on dashboard "nowhere"/.test(candidate.message),
    );
    expect(issue?.source?.line).toBeGreaterThan(1);
    expect(issue?.hint).toMatch(/"home", "coordinatorOnly"/);
  });

  it.each([
    ['{ entity: Harvest, measure: sum }', /is a sum without a field/],
    ['{ entity: Harvest, measure: sum, field: crop }', /adds up "crop", which is an enum field/],
    ['{ entity: Harvest, measure: count, by: gardener }', /groups by "gardener", a text field/],
    ['{ entity: Harvest, measure: count, by: pickedOn }', /without saying per what/],
    ['{ entity: Harvest, measure: count, per: week }', /names no date field/],
    ['{ entity: Harvest, measure: count, by: crop, per: week }', /only a date field is grouped per period/],
    ['{ entity: Harvest, measure: count, by: crop, chart: figure }', /a figure is one number/],
    ['{ entity: Harvest, measure: count, chart: bar }', /a bar chart needs groups/],
    ['{ entity: Harvest, measure: count, by: crop, chart: line }', /these groups are not periods/],
    [
      '{ entity: Harvest, measure: count, where: record.crop.startsWith("to") }',
      /cannot be run by the database/,
    ],
    ['{ entity: Harvest, measure: count, where: record.colour == "red" }', /not a valid expression/],
    ['{ entity: Harvest, measure: count, where: record.weight }', /must be true or false/],
    ['{ entity: Orchard, measure: count }', /names entity "Orchard"/],
    ['{ entity: Harvest, measure: count, call: listHarvestz }', /names call "listHarvestz"/],
    ['{ entity: Harvest, measure: count, call: createHarvest }', /is a POST; a figure is read with a GET/],
    ['{ entity: Harvest, measure: median }', /median/],
  ])('refuses %s', (figure, message) => {
    expect(errorsWith(figure).join('\n')).toMatch(message);
  });

  it('accepts a figure that a call of point 7 answers', () => {
    expect(errorsWith('{ entity: Harvest, measure: count, call: listHarvests }')).toEqual([]);
  });
});

describe('the groups of a figure', () => {
  const figure = (parts: Partial<Figure>): Figure => ({
    name: 'f',
    entity: 'Harvest',
    measure: 'count',
    chart: 'bar',
    ...parts,
  });

  it('start a period on its first day, weeks on Monday, in UTC', () => {
    expect(periodStart('2026-11-26', 'day')).toBe('2026-11-26');
    expect(periodStart('2026-11-26T23:30:00.000Z', 'week')).toBe('2026-11-23');
    expect(periodStart('2026-11-23', 'week')).toBe('2026-11-23');
    expect(periodStart('2026-11-22', 'week')).toBe('2026-11-16');
    expect(periodStart('2026-01-01', 'week')).toBe('2025-12-29');
    expect(periodStart('2026-11-26', 'month')).toBe('2026-11-01');
    expect(periodStart('not a date', 'month')).toBeNull();
    expect(periodStart(null, 'day')).toBeNull();
  });

  it('keep the largest categories, and say how many are left out', () => {
    const groups = Array.from({ length: 15 }, (_, index) => ({ key: `k${index}`, value: index }));
    const shaped = shapeFigure(figure({ by: 'crop' }), groups);
    expect('groups' in shaped && shaped.groups.map((group) => group.value)).toEqual([
      14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3,
    ]);
    expect('more' in shaped && shaped.more).toBe(3);
  });

  it('fill periods without records, with 0 for a count and nothing for an average, up to the latest', () => {
    const groups = [
      { key: '2026-01-01', value: 4 },
      { key: '2026-04-01', value: 2 },
    ];
    const counted = shapeFigure(figure({ by: 'pickedOn', per: 'month', chart: 'line' }), groups);
    expect(counted).toEqual({
      groups: [
        { key: '2026-01-01', value: 4 },
        { key: '2026-02-01', value: 0 },
        { key: '2026-03-01', value: 0 },
        { key: '2026-04-01', value: 2 },
      ],
      more: 0,
      per: 'month',
    });
    const averaged = shapeFigure(
      figure({ by: 'pickedOn', per: 'month', chart: 'line', measure: 'average', field: 'weight' }),
      groups,
    );
    expect('groups' in averaged && averaged.groups[1]).toEqual({ key: '2026-02-01', value: null });
  });

  it('are drawn by a coarser period when the records span more of theirs than a chart draws', () => {
    const days = (count: number) =>
      Array.from({ length: count }, (_, index) => ({
        key: new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10),
        value: 1,
      }));
    // 31 days fit a chart by day; 40 do not, but fit one by week; two years fit only one by month.
    expect(fittingPeriod('day', days(31))).toBe('day');
    expect(fittingPeriod('day', days(40))).toBe('week');
    expect(fittingPeriod('day', days(2 * 365))).toBe('month');
    expect(fittingPeriod('week', days(40))).toBe('week');
    // A span longer than any chart draws still takes the coarsest, and its latest periods.
    expect(fittingPeriod('day', days(10 * 365))).toBe('month');
    // Never finer than the figure's own.
    expect(fittingPeriod('month', days(3))).toBe('month');
    expect(fittingPeriod('day', [])).toBe('day');
  });

  it('keep the latest periods only, and count those left out', () => {
    const groups = Array.from({ length: 40 }, (_, index) => ({
      key: new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10),
      value: 1,
    }));
    const shaped = shapeFigure(figure({ by: 'pickedOn', per: 'day', chart: 'line' }), groups);
    expect('groups' in shaped && shaped.groups.length).toBe(31);
    expect('groups' in shaped && shaped.groups[0]?.key).toBe('2026-01-10');
    expect('more' in shaped && shaped.more).toBe(9);
  });

  it('are computed over records as SQL would: empty fields group as none, an average skips them', () => {
    const records = [
      { crop: 'kale', weight: 2 },
      { crop: 'kale', weight: null },
      { crop: null, weight: 4 },
    ];
    const all = { kind: 'constant', value: true } as const;
    expect(groupRecords(records, figure({ by: 'crop' }), all)).toEqual([
      { key: 'kale', value: 2 },
      { key: null, value: 1 },
    ]);
    expect(groupRecords(records, figure({ by: 'crop', measure: 'average', field: 'weight' }), all)).toEqual([
      { key: 'kale', value: 2 },
      { key: null, value: 4 },
    ]);
    expect(shapeFigure(figure({ measure: 'average', field: 'weight' }), [])).toEqual({ value: null });
    expect(shapeFigure(figure({ measure: 'sum', field: 'weight' }), [])).toEqual({ value: 0 });
  });
});
