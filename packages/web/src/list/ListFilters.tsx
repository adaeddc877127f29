import { Button } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { entityLabel, exhaustiveSwitchError, fieldLabel, findEntity, type Model } from '@ninefold/model';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import { dayPattern } from '../fields/date-format';
import { nameSource } from '../fields/reference-access';
import { type I18n, useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { SelectField, TextField } from './FilterField';
import { type FilterPlan, filterWidgetKind } from './list-plan';
import type ReferenceFilterComponent from './ReferenceFilter';
import './list.css';
import { withLaterStyles } from '../app/later-styles';

// The multi-value picker brings a positioning library along; only lists that filter with `in` load it.
const EnumMultiFilter = lazy(withLaterStyles(() => import('./EnumMultiFilter')));
// A reference filter by name loads its code when it is first used, not with the list.
const loadReferenceFilter = () => import('./ReferenceFilter');

/** Typing waits this long before the list is asked for again. */
export const FILTER_DEBOUNCE_MS = 300;

export interface ListFiltersProps {
  filters: FilterPlan[];
  values: Record<string, string | string[]>;
  onChange(field: string, value: string | string[] | undefined): void;
  onClear(): void;
  /** The free-text search, first, when the list call takes one. */
  search?: { label: string; value: string; onChange(text: string): void };
  /**
   * On a phone the filters other than the search fold under one "Filters" line (open while one is set):
   * four of them stood a screen's height between the list's title and its first record.
   */
  folded?: boolean;
}

/** One widget per filter the screen offers and the list call carries, by the field's kind. */
export function ListFilters({ filters, values, onChange, onClear, search, folded }: ListFiltersProps) {
  const { t } = useI18n();
  const set = Object.keys(values).length;
  const [open, setOpen] = useState(set > 0);
  if (filters.length === 0 && !search) return null;
  const active = set > 0 || !!search?.value;
  const widgets = filters.map((filter) => (
    // A class rather than Mantine's responsive width, which put a <style> element in the page per
    // filter, each making the browser restyle the whole document.
    <div key={filter.field.name} className="nf-list-filter">
      <FilterWidget
        filter={filter}
        value={values[filter.field.name]}
        onChange={(value) => onChange(filter.field.name, value)}
      />
    </div>
  ));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form, so that Enter in a filter is caught here; <search> is not one
    <form
      className="nf-list-filters"
      role="search"
      aria-label={t('list.filters')}
      onSubmit={(event) => event.preventDefault()}
    >
      <div className="nf-filter-row">
        {search ? (
          <div className="nf-list-filter">
            <DebouncedTextFilter
              label={search.label}
              description={undefined}
              numeric={false}
              value={search.value}
              normalize={trim}
              onChange={(text) => search.onChange(text.trim())}
              shortcut="/"
            />
          </div>
        ) : null}
        {folded && filters.length > 0 ? (
          <details
            className="nf-filter-fold"
            open={open}
            onToggle={(event) => setOpen(event.currentTarget.open)}
          >
            <summary>{set > 0 ? t('list.filtersSet', { count: set }) : t('list.filters')}</summary>
            <div className="nf-filter-row">{widgets}</div>
          </details>
        ) : (
          widgets
        )}
        {active ? (
          <Button variant="subtle" onClick={onClear}>
            {t('list.clearFilters')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

interface FilterWidgetProps {
  filter: FilterPlan;
  value: string | string[] | undefined;
  onChange(value: string | string[] | undefined): void;
}

function FilterWidget({ filter, value, onChange }: FilterWidgetProps) {
  const i18n = useI18n();
  const { model, data } = useSpec();
  const session = useSession();
  const { t } = i18n;
  const { field, op } = filter;
  const label = filterLabel(filter, i18n);
  const single = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  const kind = filterWidgetKind(field);
  switch (kind) {
    case 'enum': {
      const options = field.kind === 'enum' ? field.values : [];
      const data = options.map((option) => ({ value: option.value, label: option.label ?? option.value }));
      if (op === 'in') {
        return (
          <Suspense fallback={<TextField label={label} disabled value="" readOnly />}>
            <EnumMultiFilter
              label={label}
              data={data}
              value={Array.isArray(value) ? value : value ? [value] : []}
              onChange={(next) => onChange(next)}
            />
          </Suspense>
        );
      }
      return (
        <SelectField
          label={label}
          value={single}
          onChange={(event) => onChange(event.currentTarget.value || undefined)}
          options={[{ value: '', label: t('list.any') }, ...data]}
        />
      );
    }
    case 'boolean':
      return (
        <SelectField
          label={label}
          value={single}
          onChange={(event) => onChange(event.currentTarget.value || undefined)}
          options={[
            { value: '', label: t('list.any') },
            { value: 'true', label: t('list.yes') },
            { value: 'false', label: t('list.no') },
          ]}
        />
      );
    case 'date':
      return <DateFilterOnUse label={label} value={single || undefined} onChange={onChange} />;
    case 'datetime':
      return (
        <TextField
          type="datetime-local"
          label={label}
          value={single}
          onChange={(event) => onChange(event.currentTarget.value || undefined)}
        />
      );
    case 'number':
    case 'text':
    case 'reference': {
      // A reference by name where the role may list and read the records referred to; else by id.
      const source =
        op === 'eq' && field.kind === 'reference'
          ? nameSource(model, data, session, field.entity)
          : undefined;
      // By its own list where the role may list it; else by the names the API tells the role.
      const byName =
        field.kind === 'reference' &&
        (source?.kind === 'names' ||
          (source?.kind === 'record' && data.calls(field.entity).list !== undefined));
      if (field.kind === 'reference' && source !== undefined && byName) {
        return (
          <ReferenceFilterOnUse
            label={label}
            entity={field.entity}
            display={source.display}
            source={source.kind}
            value={single === '' ? undefined : single}
            onChange={onChange}
          />
        );
      }
      return (
        <DebouncedTextFilter
          label={label}
          description={
            op === 'in'
              ? t('list.filterAnyOfHint')
              : field.kind === 'reference'
                ? t('list.filterReferenceHint', { entity: referredLabel(model, field.entity) })
                : undefined
          }
          numeric={kind === 'number' && op !== 'in'}
          value={Array.isArray(value) ? value.join(', ') : single}
          normalize={op === 'in' ? (text) => splitList(text).join(', ') : trim}
          onChange={(text) => {
            if (op !== 'in') return onChange(text.trim() || undefined);
            const parts = splitList(text);
            return onChange(parts.length > 0 ? parts : undefined);
          }}
        />
      );
    }
    case undefined:
      return null;
    default:
      return exhaustiveSwitchError(kind);
  }
}

/**
 * A plain box until the reference filter is first used (focused, or named by the address): its code,
 * and the suggestions it asks for, come then, and take the box's place with what was typed and the focus.
 * The code is in hand before the swap (no Suspense), so that nothing typed meanwhile is lost.
 */
function ReferenceFilterOnUse(props: {
  label: string;
  entity: string;
  display: string;
  source: 'record' | 'names';
  value: string | undefined;
  onChange(id: string | undefined): void;
}) {
  const { t } = useI18n();
  const [Loaded, setLoaded] = useState<typeof ReferenceFilterComponent>();
  const [typed, setTyped] = useState('');
  const focused = useRef(false);
  const use = useCallback(() => {
    // Without its code the box stays a plain one, which filters nothing; the console says why.
    loadReferenceFilter().then((module) => setLoaded(() => module.default), console.error);
  }, []);
  useEffect(() => {
    if (props.value !== undefined) use();
  }, [props.value, use]);
  if (Loaded) return <Loaded {...props} initialText={typed} autoFocus={focused.current} />;
  return (
    <TextField
      label={props.label}
      placeholder={t('list.filterReferencePlaceholder')}
      value={typed}
      onFocus={() => {
        focused.current = true;
        use();
      }}
      onBlur={() => {
        focused.current = false;
      }}
      onChange={(event) => setTyped(event.currentTarget.value)}
    />
  );
}

/** Mantine's date input, loaded with the styles it needs. */
const loadDateInput = withLaterStyles(() => import('../fields/DateInput'));

/**
 * A date filter: a plain box until it is first used (or holds a day from the address), then Mantine's
 * date input, typed in the language's order (DD/MM/YYYY in French). Its code is not part of a list's
 * first load; what was typed before it came is read in that order, not lost.
 */
function DateFilterOnUse(props: {
  label: string;
  value: string | undefined;
  onChange(day: string | undefined): void;
}) {
  const { locale } = useI18n();
  const [Loaded, setLoaded] = useState<typeof import('../fields/DateInput')>();
  const [typed, setTyped] = useState('');
  const focused = useRef(false);
  const pattern = dayPattern(locale);
  const use = useCallback(() => {
    loadDateInput().then((module) => setLoaded(() => module), console.error);
  }, []);
  useEffect(() => {
    if (props.value !== undefined) use();
  }, [props.value, use]);
  useEffect(() => {
    if (!Loaded || typed.trim() === '') return;
    const day = Loaded.parseDay(typed, pattern);
    if (day !== undefined) props.onChange(day);
    setTyped('');
  }, [Loaded, typed, pattern, props.onChange]);
  if (Loaded) {
    const Input = Loaded.default;
    // Mantine's input shows a value given while it has the focus only once it loses it: a day typed before
    // it came is applied (above), and shown, without it taking the focus.
    return (
      <Input
        label={props.label}
        value={props.value}
        onChange={props.onChange}
        autoFocus={focused.current && typed.trim() === ''}
      />
    );
  }
  return (
    <TextField
      label={props.label}
      placeholder={locale === 'fr' ? pattern.replace(/D/g, 'J').replace(/Y/g, 'A') : pattern}
      value={typed}
      onFocus={() => {
        focused.current = true;
        use();
      }}
      onBlur={() => {
        focused.current = false;
      }}
      onChange={(event) => setTyped(event.currentTarget.value)}
    />
  );
}

/** "customer" for a reference to Customer, inside a sentence. */
function referredLabel(model: Model, entity: string): string {
  const found = findEntity(model, entity);
  const label = found ? entityLabel(found) : entity;
  return /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

/** A filter's label says how it compares: "Name contains", "Placed on from", "Total at most". */
export function filterLabel(filter: FilterPlan, { t }: Pick<I18n, 't'>): string {
  const label = fieldLabel(filter.field);
  const dated = filter.field.kind === 'date' || filter.field.kind === 'datetime';
  switch (filter.op) {
    case 'eq':
      return label;
    case 'contains':
      return t('list.filterContains', { label });
    case 'gte':
      return t(dated ? 'list.filterFrom' : 'list.filterAtLeast', { label });
    case 'lte':
      return t(dated ? 'list.filterUntil' : 'list.filterAtMost', { label });
    case 'in':
      return t('list.filterAnyOf', { label });
    default:
      return exhaustiveSwitchError(filter.op);
  }
}

interface DebouncedTextFilterProps {
  label: string;
  description: string | undefined;
  numeric: boolean;
  value: string;
  /** What the address will hold for a text, so that the echo of what was typed is recognized as such. */
  normalize(text: string): string;
  onChange(value: string): void;
  /** The key that takes a person to this box from anywhere on the page (`aria-keyshortcuts`). */
  shortcut?: string;
}

/**
 * A text filter that asks for the list only once typing pauses. It keeps what is typed locally and
 * follows the address when that changes from elsewhere (back/forward, clearing the filters).
 */
function DebouncedTextFilter({
  label,
  description,
  numeric,
  value,
  normalize,
  onChange,
  shortcut,
}: DebouncedTextFilterProps) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  const send = useDebouncedCallback((next: string) => {
    sent.current = next;
    onChange(next);
  }, FILTER_DEBOUNCE_MS);
  useEffect(() => {
    if (value === normalize(sent.current)) return;
    // The address changed under the input: what was typed and not yet sent no longer applies.
    send.cancel();
    sent.current = value;
    setText(value);
  }, [value, send, normalize]);
  return (
    <TextField
      type={numeric ? 'number' : 'search'}
      inputMode={numeric ? 'decimal' : undefined}
      label={label}
      hint={description}
      value={text}
      aria-keyshortcuts={shortcut}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        send(next);
      }}
    />
  );
}

function trim(text: string): string {
  return text.trim();
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
