import { Anchor, Text } from '@mantine/core';
import { Link } from '../app/router';
import type { DisplayProps } from './display-props';
import { useReferenceTarget } from './useReferenceTarget';

/**
 * The record a reference points at, by its display field (a customer's name rather than `3`), loaded
 * through `data.get` and cached with every other read of that record. Links to the record's detail
 * screen when there is one; shows the id when the record cannot be read.
 */
export function ReferenceDisplay({ field, value, model }: DisplayProps<'reference'>) {
  const { id, text, to, loading } = useReferenceTarget(field, value, model);
  if (loading) {
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
