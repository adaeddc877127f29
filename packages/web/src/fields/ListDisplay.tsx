import { List, Text } from '@mantine/core';
import {
  type Entity,
  entityLabel,
  type Field,
  fieldLabel,
  findEntity,
  type JsonValue,
} from '@ninefold/model';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { type DisplayProps, readsAsBlock, type TotalRow, textOf } from './display-props';
import { FieldDisplay } from './FieldDisplay';
import { FieldTable } from './FieldTable';

addEnglish('form', formMessages);

/**
 * A list's items, each with its item type's display. Embedded objects of short fields (order lines) are
 * a table, a row each, numbers to the right; other embedded objects are numbered groups.
 */
export function ListDisplay({ field, value, model, totals }: DisplayProps<'list'>) {
  const { t } = useI18n();
  if (!Array.isArray(value)) return <Text span>{textOf(value)}</Text>;
  // Items have a type but no name of their own; they borrow the list's.
  const item = { ...field.of, name: field.name } as Field;
  const itemEntity = field.of.kind === 'object' ? findEntity(model, field.of.entity) : undefined;
  if (itemEntity && readsAsTable(model, field)) {
    return (
      <ItemTable
        entity={itemEntity}
        items={value}
        label={fieldLabel(field)}
        model={model}
        {...(totals ? { totals } : {})}
      />
    );
  }
  return (
    <List
      type={itemEntity ? 'ordered' : 'unordered'}
      spacing="xs"
      listStyleType={itemEntity ? 'none' : undefined}
    >
      {value.map((entry, index) => (
        // Items have no identity of their own; the list is read-only, so their order is stable.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <List.Item key={index}>
          {itemEntity ? (
            <Text size="sm" fw={600}>
              {t('form.itemNumber', { item: entityLabel(itemEntity), number: index + 1 })}
            </Text>
          ) : null}
          <FieldDisplay field={item} value={entry} model={model} />
        </List.Item>
      ))}
    </List>
  );
}

/** Whether a list's items are a table: objects of short fields (order lines), not blocks (addresses). */
export function readsAsTable(model: DisplayProps<'list'>['model'], field: Field): boolean {
  if (field.kind !== 'list' || field.of.kind !== 'object') return false;
  const itemEntity = findEntity(model, field.of.entity);
  return itemEntity?.fields.every((column) => !readsAsBlock(column)) === true;
}

function ItemTable({
  entity,
  items,
  label,
  model,
  totals,
}: {
  entity: Entity;
  items: JsonValue[];
  label: string;
  model: DisplayProps<'list'>['model'];
  totals?: readonly TotalRow[];
}) {
  const rows = items.map((entry, index) => ({
    // Items have no identity of their own; the list is read-only, so their order is stable.
    key: String(index),
    values:
      typeof entry === 'object' && entry !== null && !Array.isArray(entry)
        ? (entry as Record<string, JsonValue>)
        : {},
  }));
  return (
    <FieldTable
      columns={entity.fields.filter((column) => !column.writeOnly)}
      rows={rows}
      label={{ text: label }}
      {...(totals ? { footer: totals } : {})}
      cell={(column, values) => (
        <FieldDisplay field={column} value={values[column.name]} model={model} place="cell" />
      )}
    />
  );
}
