import { useDebouncedValue } from '@mantine/hooks';
import { findEntity, type JsonValue } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import { namesReaderFor } from '../data/names-reader';
import { displayFilter } from '../fields/display-filter';
import { labelOf } from '../fields/display-props';
import { firstPage } from '../form/first-page';
import { nameKey, optionsKey } from '../form/query-keys';
import { useRecord } from '../form/useRecord';
import { useI18n } from '../i18n/I18nProvider';
import { TextField } from './FilterField';

/** How long typing pauses before the referenced records are asked for. */
const SEARCH_DELAY_MS = 250;
/** Suggestions offered at once: the first page of what matches. */
const SUGGESTIONS = 20;

export interface ReferenceFilterProps {
  label: string;
  /** The referenced entity, and its field that names a record (`Customer`, `name`). */
  entity: string;
  display: string;
  /**
   * Where names come from: the entity's own calls (`record`, the default), or the API's names call
   * (`names`) for a role that may not list the entity but sees its ids (`nameSource`).
   */
  source?: 'record' | 'names';
  /** The id the list is filtered by, from the address. */
  value: string | undefined;
  onChange(id: string | undefined): void;
  /** What was typed in the plain box before this code arrived, and whether that box had the focus. */
  initialText?: string;
  autoFocus?: boolean;
}

interface Choice {
  id: string;
  /** What the box shows and the person picks: the record's name, with its id when two share a name. */
  label: string;
}

/**
 * A filter on a reference by the referenced record's name: what is typed is looked up through the
 * entity's list call (its filter on the display field when point 7 names one, else its first page), or
 * for a role that may not list the entity, through the API's names call (the names it may be told), and
 * offered as suggestions (a native datalist: no picker library in a list's code). Picking one filters the
 * list by its id; a name that matches no suggestion filters nothing, and says so.
 */
export default function ReferenceFilter({
  label,
  entity,
  display,
  source = 'record',
  value,
  onChange,
  initialText = '',
  autoFocus = false,
}: ReferenceFilterProps) {
  const { model, data } = useSpec();
  const { t } = useI18n();
  const listId = useId();
  const key = findEntity(model, entity)?.key ?? 'id';
  const listCall = data.calls(entity).list;
  const apiFilter = displayFilter(listCall, display);

  const [text, setText] = useState(initialText);
  // It takes the focus the plain box had when this code arrived, with the caret after what was typed.
  const input = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the box takes the plain one's place
  useLayoutEffect(() => {
    const box = input.current;
    if (!autoFocus || !box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, []);
  const [debounced] = useDebouncedValue(text, SEARCH_DELAY_MS);
  // The name of the record an address names (a reload, a shared link), shown in the box.
  const byName = source === 'names';
  const record = useRecord(entity, value, { enabled: !byName && value !== undefined && text === '' });
  const told = useQuery({
    queryKey: nameKey(entity, value ?? ''),
    queryFn: async () => (await namesReaderFor(data)?.read({ kind: 'records', entity }, value ?? '')) ?? null,
    enabled: byName && value !== undefined && text === '',
  });
  const namedValue = byName ? told.data : record.data?.record[display];
  const shownFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    const name = namedValue;
    if (value === undefined || shownFor.current === value || name === undefined || name === null) return;
    shownFor.current = value;
    setText(labelOf(name));
  }, [namedValue, value]);
  // Filters cleared elsewhere (the "Clear filters" button, going back): the box empties too.
  const previous = useRef(value);
  useEffect(() => {
    if (previous.current !== undefined && value === undefined) setText('');
    previous.current = value;
  }, [value]);

  const term = debounced.trim();
  const suggestions = useQuery({
    queryKey: [...optionsKey(entity, apiFilter || byName ? term : ''), source],
    queryFn: async ({ signal }) =>
      byName
        ? [...((await data.names?.({ of: { kind: 'records', entity }, search: term, signal })) ?? [])].map(
            ([id, name]) => ({ [key]: id, [display]: name }),
          )
        : (
            await data.list({
              entity,
              page: firstPage(listCall?.pagination, SUGGESTIONS),
              sort: [],
              filters: apiFilter && term ? [{ field: display, op: apiFilter.op, value: term }] : [],
              signal,
            })
          ).items,
    enabled: (byName || listCall !== undefined) && term !== '',
    staleTime: 30_000,
  });
  const choices = choicesOf(suggestions.data ?? [], key, display, apiFilter || byName ? '' : term);
  const picked = choices.find((choice) => choice.label === text.trim());
  const unmatched = term !== '' && !suggestions.isFetching && picked === undefined && value === undefined;
  // A suggestion picked, or a name typed in full: the list is filtered by that record.
  const pickedId = picked?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly picked record filters the list
  useEffect(() => {
    if (pickedId === undefined || pickedId === value) return;
    shownFor.current = pickedId;
    onChange(pickedId);
  }, [pickedId]);

  return (
    <>
      <TextField
        label={label}
        hint={
          suggestions.isError
            ? t('list.filterReferenceFailed')
            : unmatched
              ? t('list.filterReferencePick')
              : undefined
        }
        placeholder={t('list.filterReferencePlaceholder')}
        list={listId}
        autoComplete="off"
        ref={input}
        value={text}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setText(next);
          if (next.trim() === '' && value !== undefined) onChange(undefined);
        }}
      />
      <datalist id={listId}>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.label} />
        ))}
      </datalist>
    </>
  );
}

/** The records as choices; names two records share carry their ids, and a term filters them here. */
function choicesOf(
  records: ReadonlyArray<Record<string, JsonValue>>,
  key: string,
  display: string,
  term: string,
): Choice[] {
  const named = records.flatMap((record) => {
    const id = record[key];
    if (id === undefined || id === null) return [];
    const name = record[display];
    return [{ id: String(id), name: name === undefined || name === null ? String(id) : labelOf(name) }];
  });
  const counts = new Map<string, number>();
  for (const { name } of named) counts.set(name, (counts.get(name) ?? 0) + 1);
  const lower = term.toLowerCase();
  return named
    .map(({ id, name }) => ({ id, label: (counts.get(name) ?? 0) > 1 ? `${name} (${id})` : name }))
    .filter((choice) => lower === '' || choice.label.toLowerCase().includes(lower));
}
