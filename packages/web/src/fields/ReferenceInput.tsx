import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DEFAULT_PAGE_SIZE, findEntity, type JsonValue, resolveAmount } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { screenFor } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { firstPage } from '../form/first-page';
import { optionsKey } from '../form/query-keys';
import { useFieldError } from '../form/useFieldError';
import { useRecord } from '../form/useRecord';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { displayFilter } from './display-filter';
import { labelOf } from './display-props';
import type { InputProps } from './FieldInput';

addEnglish('form', formMessages);

/** The prototype API's page size, for a target entity whose list screen names none. */

/** How long to wait after the last keystroke before asking the API. */
const SEARCH_DELAY_MS = 250;

/**
 * A reference: a searchable choice among the target entity's records, loaded through its list call
 * when the choice is first opened. When the list call filters on the display field (`contains`, else
 * `eq`), what the person types is sent as that filter; else, when the list call has a search, as the
 * search; otherwise the first page is offered and filtered here. The chosen record is shown by its display field, read through `data.get` when editing.
 */
export function ReferenceInput({ field, name, label, description, required }: InputProps<'reference'>) {
  const { model, data } = useSpec();
  const { t } = useI18n();
  const { field: control } = useController({ name });
  const { clearErrors, getFieldState } = useFormContext();
  const error = useFieldError(name);
  const target = findEntity(model, field.entity);
  const key = target?.key ?? 'id';
  const display = target?.display;
  const listCall = data.calls(field.entity).list;
  const filter = displayFilter(listCall, display);
  const listScreen = screenFor(model, 'list', field.entity);
  const pageSize = resolveAmount(model, listScreen?.kind === 'list' ? listScreen.pageSize : undefined)?.value;
  const size = typeof pageSize === 'number' ? pageSize : DEFAULT_PAGE_SIZE;

  const value = typeof control.value === 'string' ? control.value : '';
  const [picked, setPicked] = useState<{ value: string; label: string } | undefined>();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DELAY_MS);
  const choiceLabel = (record: Record<string, JsonValue> | undefined, id: string) => {
    const shown = display ? record?.[display] : undefined;
    return shown === undefined || shown === null || shown === '' ? id : labelOf(shown);
  };

  // The value given on edit is only an id: read its record to show its name.
  const stored = useRecord(field.entity, value, {
    enabled: value !== '' && picked?.value !== value && !!display,
  });
  const chosenLabel =
    value === ''
      ? undefined
      : picked?.value === value
        ? picked.label
        : choiceLabel(stored.data?.record, value);
  // After a choice the box shows the chosen name; that is not a search.
  // Without a filter on the name, the list's own search box finds records beyond the first page.
  const searches = filter === undefined && listCall?.search !== undefined;
  const term = (filter || searches) && debounced !== chosenLabel ? debounced.trim() : '';

  const options = useQuery({
    queryKey: optionsKey(field.entity, term),
    queryFn: ({ signal }) =>
      data.list({
        entity: field.entity,
        page: firstPage(listCall?.pagination, size),
        sort: [],
        filters: filter && display && term ? [{ field: display, op: filter.op, value: term }] : [],
        ...(searches && term ? { search: term } : {}),
        signal,
      }),
    enabled: opened && listCall !== undefined,
    staleTime: 30_000,
  });
  const choices = (options.data?.items ?? []).flatMap((record) => {
    const id = record[key];
    return id === undefined || id === null
      ? []
      : [{ value: String(id), label: choiceLabel(record, String(id)) }];
  });
  if (value !== '' && !choices.some((choice) => choice.value === value)) {
    choices.unshift({ value, label: chosenLabel ?? value });
  }

  return (
    <Select
      ref={control.ref}
      name={control.name}
      label={label}
      description={description}
      required={required}
      error={error}
      placeholder={t('form.search')}
      searchable
      // Focus alone (a refused save, "Go to the field") must not cover the field's message with the list:
      // a click, typing or the arrow keys open it.
      openOnFocus={false}
      clearable={!required}
      clearButtonProps={{ 'aria-label': t('form.clearValue', { label: String(label) }) }}
      data={choices}
      value={value === '' ? null : value}
      onChange={(next, option) => {
        control.onChange(next ?? '');
        setPicked(next && option ? { value: next, label: option.label } : undefined);
        if (getFieldState(name).error) clearErrors(name);
      }}
      onBlur={control.onBlur}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      // The API has filtered already; filtering its answer again here could hide what it matched.
      {...(filter || searches ? { filter: ({ options: all }) => all } : {})}
      nothingFoundMessage={
        options.isFetching
          ? t('form.searching')
          : options.isError
            ? t('form.optionsFailed')
            : t('form.nothingFound')
      }
      rightSection={options.isFetching ? <Loader size="xs" /> : undefined}
    />
  );
}
