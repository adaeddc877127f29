import { Box, Text } from '@mantine/core';
import { type Field, fieldLabel, type JsonValue, type Model } from '@ninefold/spec';
import { FieldDisplay } from './FieldDisplay';

export interface FieldListProps {
  fields: readonly Field[];
  record: Record<string, JsonValue>;
  model: Model;
  /** The entity the record belongs to, so that a state field shows as a badge. */
  entity?: string;
}

/**
 * Fields of a record as a description list: each label above its value, which reads well at any width
 * (a phone's 360 px included) and keeps labels and values paired for screen readers.
 */
export function FieldList({ fields, record, model, entity }: FieldListProps) {
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gap: 'var(--mantine-spacing-sm)' }}>
      {fields.map((field) => (
        <div key={field.name}>
          <Text component="dt" size="sm" fw={600} c="dimmed">
            {fieldLabel(field)}
          </Text>
          <Box component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
            <FieldDisplay
              field={field}
              value={record[field.name]}
              model={model}
              {...(entity ? { entity } : {})}
            />
          </Box>
        </div>
      ))}
    </Box>
  );
}
