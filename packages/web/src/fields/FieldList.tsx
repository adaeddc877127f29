import { Box, Stack, Text, Title } from '@mantine/core';
import { type Field, fieldLabel, findEntity, type JsonValue, type Model } from '@ninefold/model';
import { readsAsBlock } from './display-props';
import { FieldDisplay } from './FieldDisplay';
import { fieldGroups } from './field-groups';
import { readsAsTable } from './ListDisplay';
import { listTotals } from './list-totals';

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
export function FieldList({ fields: given, record, model, entity }: FieldListProps) {
  // A list's totals (an order's total of its lines) sit under its table, not again among the fields.
  // Only under a table that is drawn: a list of items, each of short fields.
  const totals = new Map(
    [...listTotals(entity ? findEntity(model, entity) : undefined, given)].filter(([name]) => {
      const list = given.find((field) => field.name === name);
      const items = record[name];
      return list !== undefined && Array.isArray(items) && items.length > 0 && readsAsTable(model, list);
    }),
  );
  const underTables = new Set([...totals.values()].flat().map((field) => field.name));
  const fields = given.filter((field) => !underTables.has(field.name));
  const groups = fieldGroups(fields, (field) => field);
  const totalsOf = (field: Field) =>
    totals.get(field.name)?.map((total) => ({
      label: fieldLabel(total),
      value: <FieldDisplay field={total} value={record[total.name]} model={model} />,
    }));
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
              {...(totals.has(field.name) ? { totals: totalsOf(field) ?? [] } : {})}
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
