import { didYouMean } from '../authoring/suggest';
import { expressionEnvironment } from '../cel';
import type { PathSegment } from '../issues';
import { type Entity, FIGURE_CHARTS, type Field } from '../model';
import { columnKindOf, conditionAsData } from '../rules/condition-data';
import { type Context, checkCel, isRecord, kindOf, list, refer, referField, report, text } from './context';

// The checks of a dashboard's figures (point 2): each must be an aggregate the prototype API can compute
// in SQL, so that a figure is never made by downloading records.

const NUMERIC = new Set(['number', 'integer', 'money']);
const GROUPS = new Set(['enum', 'boolean', 'reference']);
const DATES = new Set(['date', 'datetime']);

export function checkFigures(context: Context, raw: Record<string, unknown>, base: PathSegment[]): void {
  for (const figure of list(raw.figures)) {
    if (!isRecord(figure)) continue;
    const name = text(figure.name) ?? '';
    const path = [...base, 'figures', name];
    const owner = `figure "${name}" of screen "${String(raw.name)}" (point 2)`;
    const entity = refer<Entity>(context, 'entity', figure.entity, [...path, 'entity'], owner);
    if (entity?.embedded === true) {
      report(
        context,
        'kind-mismatch',
        [...path, 'entity'],
        `${owner} counts "${entity.name}", which is embedded in other records and has no records of its own. ` +
          'Name an entity that is not embedded.',
      );
      continue;
    }
    if (entity === undefined) continue;
    checkMeasure(context, figure, entity, path, owner);
    const grouping = checkGrouping(context, figure, entity, path, owner);
    checkChart(context, figure, grouping, path, owner);
    checkWhere(context, figure, entity, path, owner);
    if (figure.call !== undefined) {
      const call = refer<{ method?: unknown }>(context, 'call', figure.call, [...path, 'call'], owner);
      if (call && call.method !== 'GET') {
        report(
          context,
          'kind-mismatch',
          [...path, 'call'],
          `${owner} is answered by call "${String(figure.call)}", which is a ${String(call.method)}; a figure is read with a GET call.`,
        );
      }
    }
  }
}

function checkMeasure(
  context: Context,
  figure: Record<string, unknown>,
  entity: Entity,
  path: PathSegment[],
  owner: string,
): void {
  if (figure.measure === 'count') return;
  if (figure.field === undefined) {
    report(
      context,
      'missing-key',
      [...path, 'field'],
      `${owner} is a ${String(figure.measure)} without a field. Name the number or money field it adds up.`,
    );
    return;
  }
  const field = referField(context, entity, figure.field, [...path, 'field'], owner);
  if (field && !NUMERIC.has(String(kindOf(field)))) {
    report(
      context,
      'kind-mismatch',
      [...path, 'field'],
      `${owner} adds up "${field.name}", which is ${article(String(field.kind))} field. Name a number, integer or money field.`,
    );
  }
}

type Grouping = 'none' | 'category' | 'period';

function checkGrouping(
  context: Context,
  figure: Record<string, unknown>,
  entity: Entity,
  path: PathSegment[],
  owner: string,
): Grouping {
  if (figure.by === undefined) {
    if (figure.per !== undefined) {
      report(
        context,
        'missing-key',
        [...path, 'by'],
        `${owner} groups per ${String(figure.per)} but names no date field to group by. Add "by" with a date field.`,
      );
    }
    return 'none';
  }
  const field: Field | undefined = referField(context, entity, figure.by, [...path, 'by'], owner);
  if (!field) return 'none';
  const kind = String(field.kind);
  if (DATES.has(kind)) {
    if (figure.per === undefined) {
      report(
        context,
        'missing-key',
        [...path, 'per'],
        `${owner} groups by the ${kind} field "${field.name}" without saying per what. Add per: day, week or month.`,
      );
    }
    return 'period';
  }
  if (!GROUPS.has(kind)) {
    report(
      context,
      'kind-mismatch',
      [...path, 'by'],
      `${owner} groups by "${field.name}", ${article(kind)} field. Group by an enum, a boolean, a reference or a date field.`,
    );
    return 'none';
  }
  if (figure.per !== undefined) {
    report(
      context,
      'kind-mismatch',
      [...path, 'per'],
      `${owner} groups "${field.name}" per ${String(figure.per)}, but only a date field is grouped per period. Remove "per".`,
    );
  }
  return 'category';
}

function checkChart(
  context: Context,
  figure: Record<string, unknown>,
  grouping: Grouping,
  path: PathSegment[],
  owner: string,
): void {
  const chart = figure.chart;
  if (typeof chart !== 'string') return;
  if (!FIGURE_CHARTS.includes(chart as never)) {
    report(
      context,
      'invalid-value',
      [...path, 'chart'],
      `${owner} is drawn as "${chart}", which is not a chart. Use one of: ${FIGURE_CHARTS.join(', ')}.`,
      { hint: didYouMean(chart, FIGURE_CHARTS) },
    );
    return;
  }
  const problem =
    chart === 'figure' && grouping !== 'none'
      ? 'a figure is one number, but this one has groups. Draw it as a bar, line or donut chart.'
      : chart !== 'figure' && grouping === 'none'
        ? `a ${chart} chart needs groups. Add "by", or draw it as a figure.`
        : chart === 'line' && grouping === 'category'
          ? 'a line runs over periods, and these groups are not periods. Draw it as bars or a donut.'
          : undefined;
  if (problem) report(context, 'kind-mismatch', [...path, 'chart'], `${owner}: ${problem}`);
}

function checkWhere(
  context: Context,
  figure: Record<string, unknown>,
  entity: Entity,
  path: PathSegment[],
  owner: string,
): void {
  if (typeof figure.where !== 'string') return;
  const before = context.out.length;
  const scope = { entity: entity.name, variables: ['record' as const] };
  checkCel(context, figure.where, [...path, 'where'], `the condition of ${owner}`, scope, true);
  if (context.out.length > before) return;
  const env = expressionEnvironment(context.model, scope);
  const data = conditionAsData(figure.where, env, {}, (field) => columnKindOf(context.model, entity, field));
  if (data === undefined) {
    report(
      context,
      'invalid-expression',
      [...path, 'where'],
      `the condition of ${owner} cannot be run by the database, and a figure is computed there, never by reading every record. ` +
        'Compare fields with values: ==, !=, <, <=, >, >=, in, &&, || and !.',
    );
  }
}

function article(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
