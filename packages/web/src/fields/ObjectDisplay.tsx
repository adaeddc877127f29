import { Box, Text } from '@mantine/core';
import { findEntity, type JsonValue } from '@ninefold/model';
import { detailFields } from '../form/form-fields';
import { type DisplayProps, textOf } from './display-props';
import { FieldList } from './FieldList';

/** An embedded object (an address): its own fields, indented under the field's label. */
export function ObjectDisplay({ field, value, model }: DisplayProps<'object'>) {
  const entity = findEntity(model, field.entity);
  if (!entity || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return <Text span>{textOf(value)}</Text>;
  }
  return (
    <Box pl="sm" style={{ borderInlineStart: '2px solid var(--mantine-color-default-border)' }}>
      <FieldList
        fields={detailFields(entity, undefined)}
        record={value as Record<string, JsonValue>}
        model={model}
        entity={entity.name}
      />
    </Box>
  );
}
