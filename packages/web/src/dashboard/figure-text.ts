import {
  exhaustiveSwitchError,
  type Field,
  type Figure,
  type FigureGroup,
  type FigurePeriod,
  findEntity,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import type { Formatters } from '../i18n/I18nProvider';

/** What names a group and a value: the language's formatters and words, and the names of references. */
export interface FigureWords {
  format: Formatters;
  locale: string;
  yes: string;
  no: string;
  none: string;
  /** A referenced record's name, once read. */
  name?(entity: string, id: string): string | undefined;
}

/** The field a figure groups by, and the one it adds up. */
export function figureFields(model: Model, figure: Figure): { by?: Field; field?: Field } {
  const entity = findEntity(model, figure.entity);
  const find = (name: string | undefined) =>
    name === undefined ? undefined : entity?.fields.find((candidate) => candidate.name === name);
  const by = find(figure.by);
  const field = find(figure.field);
  return { ...(by ? { by } : {}), ...(field ? { field } : {}) };
}

/** A figure's value as text: money in its currency, other numbers as numbers. */
export function valueText(value: number | null, field: Field | undefined, words: FigureWords): string {
  if (value === null) return '—';
  return field?.kind === 'money' ? words.format.money(value, field.currency) : words.format.number(value);
}

/** A group's key as a person reads it: an enum's label, a record's name, the period it starts. */
export function groupText(figure: Figure, by: Field | undefined, key: JsonValue, words: FigureWords): string {
  if (key === null) return words.none;
  if (figure.per !== undefined && typeof key === 'string') return periodText(key, figure.per, words);
  switch (by?.kind) {
    case 'enum':
      return by.values.find((option) => option.value === key)?.label ?? String(key);
    case 'boolean':
      return key === true ? words.yes : key === false ? words.no : String(key);
    case 'reference':
      return words.name?.(by.entity, String(key)) ?? String(key);
    default:
      return typeof key === 'object' ? JSON.stringify(key) : String(key);
  }
}

function periodText(start: string, per: FigurePeriod, words: FigureWords): string {
  switch (per) {
    case 'day':
    case 'week':
      return words.format.date(start);
    case 'month': {
      const date = new Date(`${start}T00:00:00Z`);
      if (Number.isNaN(date.getTime())) return start;
      return new Intl.DateTimeFormat(words.locale, {
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(date);
    }
    default:
      return exhaustiveSwitchError(per);
  }
}

/** The groups as rows of text, for the chart's labels and the table that stands for it. */
export interface FigureRow {
  label: string;
  value: number | null;
  text: string;
}

export function figureRows(
  figure: Figure,
  groups: readonly FigureGroup[],
  fields: { by?: Field; field?: Field },
  words: FigureWords,
): FigureRow[] {
  return groups.map((group) => ({
    label: groupText(figure, fields.by, group.key, words),
    value: group.value,
    text: valueText(group.value, fields.field, words),
  }));
}

/** A value in few characters, for a chart's axis: `€28K`, `1.2M`. */
export function compactText(value: number, field: Field | undefined, locale: string): string {
  const options: Intl.NumberFormatOptions = { notation: 'compact', maximumFractionDigits: 1 };
  try {
    return new Intl.NumberFormat(
      locale,
      field?.kind === 'money' && field.currency
        ? { ...options, style: 'currency', currency: field.currency }
        : options,
    ).format(value);
  } catch {
    return new Intl.NumberFormat(locale, options).format(value);
  }
}
