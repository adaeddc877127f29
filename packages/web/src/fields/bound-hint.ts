import {
  type boundsOf,
  exhaustiveSwitchError,
  type Field,
  formatAmount,
  type ResolvedAmount,
  toBytes,
} from '@ninefold/model';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import type { I18n } from '../i18n/I18nProvider';
import { formatBytes } from './format-bytes';

addEnglish('form', formMessages);

type Bounds = ReturnType<typeof boundsOf>;

/** What a field's bounds measure, by its kind: none for kinds that bounds do not apply to. */
export type Measure = 'length' | 'count' | 'value' | 'date' | 'size';

export function measureOf(kind: Field['kind']): Measure | undefined {
  const measures: Record<Field['kind'], Measure | undefined> = {
    text: 'length',
    markdown: 'length',
    list: 'count',
    number: 'value',
    integer: 'value',
    money: 'value',
    date: 'date',
    datetime: 'date',
    file: 'size',
    boolean: undefined,
    enum: undefined,
    reference: undefined,
    object: undefined,
  };
  return measures[kind];
}

/**
 * A field's bounds of point 5 as a hint under its input: `At most 2,000 characters`, `1 to 50 lines`,
 * `0 to 250,000 EUR`, `At most 5 MB`. A constant's own unit is used when it has one; otherwise the
 * natural noun of the measure (characters, items) or the field's currency. Undefined without bounds.
 *
 * @example
 * boundHint(i18n, notesField, { constraints, max: { value: 2000, unit: 'characters' } }) // 'At most 2,000 characters'
 */
export function boundHint(i18n: I18n, field: Field, bounds: Pick<Bounds, 'min' | 'max'>): string | undefined {
  const measure = measureOf(field.kind);
  const { min, max } = bounds;
  if (!measure || (!min && !max)) return undefined;
  const { t } = i18n;
  if (measure === 'date') {
    const date = (amount: ResolvedAmount) =>
      typeof amount.value === 'string' ? i18n.format.date(amount.value) : formatAmount(amount, i18n.locale);
    if (min && max) return t('form.hintDateBetween', { min: date(min), max: date(max) });
    return min
      ? t('form.hintDateFrom', { min: date(min) })
      : t('form.hintDateUntil', { max: date(max as ResolvedAmount) });
  }
  // With both ends a shared unit is said once, after the upper one ("1 to 50 lines"); sizes and
  // currencies carry their own ("1 KB to 5 MB", "€0.00 to €100.00").
  const bare = (amount: ResolvedAmount) => {
    const shared =
      measure === 'length' ||
      measure === 'count' ||
      (measure === 'value' && (field.kind !== 'money' || max?.unit !== undefined));
    return shared && typeof amount.value === 'number'
      ? i18n.format.number(amount.value)
      : quantity(i18n, field, measure, amount);
  };
  if (min && max) return t('form.hintBetween', { min: bare(min), max: quantity(i18n, field, measure, max) });
  if (min) return t('form.hintAtLeast', { min: quantity(i18n, field, measure, min) });
  return t('form.hintAtMost', { max: quantity(i18n, field, measure, max as ResolvedAmount) });
}

/**
 * What is said under an input: the field's help and its rules' hints, then the bound's own hint unless
 * one of them already names the bound's number ("Up to 3 email addresses." then "At most 3 people" said
 * the same limit twice).
 *
 * @example
 * hintText('Up to 3 email addresses.', 'At most 3 people', [], { max: { value: 3 } }); // 'Up to 3 email addresses.'
 */
export function hintText(
  help: string | undefined,
  hint: string | undefined,
  ruleHints: readonly string[],
  bounds: Pick<Bounds, 'min' | 'max'>,
): string | undefined {
  const said = [help, ...ruleHints].filter((text): text is string => typeof text === 'string' && text !== '');
  const numbers = [bounds.min?.value, bounds.max?.value].filter((value) => typeof value === 'number');
  const repeats =
    numbers.length > 0 &&
    said.some((text) => numbers.some((value) => numbersIn(text).includes(value as number)));
  return [help, repeats ? undefined : hint, ...ruleHints].filter(Boolean).join(' · ') || undefined;
}

/** The numbers a sentence names, read whatever their grouping (2,000 or 2 000 or 2000). */
function numbersIn(text: string): number[] {
  return [...text.matchAll(/\d[\d,.\u00a0\u202f ]*\d|\d/g)].map((match) =>
    Number(match[0].replace(/[,\u00a0\u202f ]/g, '')),
  );
}

/** An amount with its unit: the constant's, else the measure's own. */
function quantity(i18n: I18n, field: Field, measure: Measure, amount: ResolvedAmount): string {
  if (typeof amount.value !== 'number') return formatAmount(amount, i18n.locale);
  switch (measure) {
    case 'size': {
      const bytes = toBytes(amount);
      return amount.unit || bytes === undefined
        ? formatAmount(amount, i18n.locale)
        : formatBytes(bytes, i18n.locale);
    }
    case 'length':
      return amount.unit ? formatAmount(amount, i18n.locale) : i18n.tn('form.characters', amount.value);
    case 'count':
      return amount.unit ? formatAmount(amount, i18n.locale) : i18n.tn('form.items', amount.value);
    case 'value':
      if (amount.unit) return formatAmount(amount, i18n.locale);
      return field.kind === 'money'
        ? i18n.format.money(amount.value, field.currency)
        : i18n.format.number(amount.value);
    case 'date':
      return formatAmount(amount, i18n.locale);
    default:
      return exhaustiveSwitchError(measure);
  }
}
