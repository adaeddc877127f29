import { Anchor, Text } from '@mantine/core';
import { findEntity, type JsonValue } from '@ninefold/spec';
import { Link } from 'react-router';
import { screenFor } from '../app/routes';
import { recordPath } from '../form/record-path';
import { useRecord } from '../form/useRecord';
import { type DisplayProps, textOf } from './display-props';

/**
 * The record a reference points at, by its display field (a customer's name rather than `3`), loaded
 * through `data.get` and cached with every other read of that record. Links to the record's detail
 * screen when there is one; shows the id when the record cannot be read.
 */
export function ReferenceDisplay({ field, value, model }: DisplayProps<'reference'>) {
  const target = findEntity(model, field.entity);
  // An API may answer a reference expanded (`{ id, name }`) rather than as an id.
  const expanded =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, JsonValue>)
      : undefined;
  const key = target?.key ?? 'id';
  const id = expanded ? textOf(expanded[key] ?? '') : textOf(value);
  const query = useRecord(field.entity, id, { enabled: !expanded && target?.display !== undefined });
  const record = expanded ?? query.data?.record;
  const shown = target?.display ? record?.[target.display] : undefined;
  const text = shown === undefined || shown === null || shown === '' ? id : textOf(shown);
  const detail = screenFor(model, 'detail', field.entity);
  const to = detail ? recordPath(detail.route, id) : undefined;
  if (query.isLoading) {
    return (
      <Text span inherit c="dimmed" aria-busy="true">
        {id}
      </Text>
    );
  }
  return to ? (
    <Anchor component={Link} to={to} inherit>
      {text}
    </Anchor>
  ) : (
    <Text span inherit>
      {text}
    </Text>
  );
}
