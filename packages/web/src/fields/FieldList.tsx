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

/** Values that read as a block (a text, an address, lines) take the whole width; the rest share rows. */
function isWide(field: Field): boolean {
  return field.kind === 'markdown' || field.kind === 'object' || field.kind === 'list';
}

/**
 * Fields of a record as a description list: each label above its value, keeping labels and values
 * paired for screen readers. Short values sit side by side in as many columns as the width holds (one on
 * a phone's 360 px); a text, an embedded object or a list takes a row of its own.
 */
export function FieldList({ fields, record, model, entity }: FieldListProps) {
  return (
    <Box component="dl" m={0} className="nf-field-list">
      {fields.map((field) => (
        <div key={field.name} data-wide={isWide(field) || undefined}>
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
