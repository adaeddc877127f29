import { Box, Stack, Text, Title } from '@mantine/core';
import { type Field, fieldLabel, type JsonValue, type Model } from '@ninefold/spec';
import { readsAsBlock } from './display-props';
import { FieldDisplay } from './FieldDisplay';
import { fieldGroups } from './field-groups';

export interface FieldListProps {
  fields: readonly Field[];
  record: Record<string, JsonValue>;
  model: Model;
  /** The entity the record belongs to, so that a state field shows as a badge. */
  entity?: string;
}

/**
 * Fields of a record as a description list: each label above its value, keeping labels and values
 * paired for screen readers. Short values sit side by side in as many columns as the width holds (one on
 * a phone's 360 px); a text, an embedded object or a list takes a row of its own. Fields point 3 puts in
 * groups are sections, each under its name.
 */
export function FieldList({ fields, record, model, entity }: FieldListProps) {
  const groups = fieldGroups(fields, (field) => field);
  const list = (shown: readonly Field[]) => (
    <Box component="dl" m={0} className="nf-field-list">
      {shown.map((field) => (
        <div key={field.name} data-wide={readsAsBlock(field) || undefined}>
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
  if (groups.length === 1 && groups[0]?.name === undefined) return list(fields);
  // Sections of point 3's groups, each under its name.
  return (
    <Stack gap="lg">
      {groups.map((group) =>
        group.name === undefined ? (
          <div key="">{list(group.items)}</div>
        ) : (
          <section key={group.name} aria-label={group.name} className="nf-field-group">
            <Title order={2} size="h5" mb="xs">
              {group.name}
            </Title>
            {list(group.items)}
          </section>
        ),
      )}
    </Stack>
  );
}
