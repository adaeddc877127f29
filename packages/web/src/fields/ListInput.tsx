import { ActionIcon, Button, Fieldset, Group, Stack, Text } from '@mantine/core';
import { entityLabel, type Field, findEntity } from '@ninefold/model';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useSpec } from '../app/SpecContext';
import { isWritable } from '../form/form-fields';
import { newListItem } from '../form/form-values';
import { useFieldError } from '../form/useFieldError';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { inSentence, itemOf } from '../i18n/wording';
import { FieldInput, GroupLegend, type InputProps, useGroupIds } from './FieldInput';

addEnglish('form', formMessages);

/**
 * A list: its items with buttons to add, remove and move them, and a count against the largest number
 * allowed. Items of embedded objects (an order's lines) are a group of inputs each; other items are one
 * input each. Adding stops at the limit of point 5 rather than letting the person find out on save.
 */
export function ListInput({ field, name, label, description, required, bounds }: InputProps<'list'>) {
  const { model } = useSpec();
  const { t, format } = useI18n();
  const { control, clearErrors } = useFormContext();
  const { fields: items, append, remove, move } = useFieldArray({ control, name });
  const error = useFieldError(`${name}.root`);
  const ids = useGroupIds();
  const itemEntity = field.of.kind === 'object' ? findEntity(model, field.of.entity) : undefined;
  // An order's lines are each an "Order line"; a list of addresses named "Co-speakers" holds a "Co-speaker".
  const itemName = itemEntity ? entityLabel(itemEntity) : itemOf(label);
  const max = typeof bounds.max?.value === 'number' ? bounds.max.value : undefined;
  const describedBy = [description ? ids.description : '', error ? ids.error : ''].join(' ').trim();
  // Items have a type but no name of their own; they borrow the list's.
  const itemField = { ...field.of, name: field.name } as Field;

  const actions = (index: number) => {
    const vars = { item: itemName, number: index + 1 };
    return (
      <Group gap={4} wrap="nowrap">
        <ActionIcon
          variant="subtle"
          aria-label={t('form.moveUp', vars)}
          title={t('form.moveUp', vars)}
          disabled={index === 0}
          onClick={() => move(index, index - 1)}
        >
          <span aria-hidden="true">↑</span>
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          aria-label={t('form.moveDown', vars)}
          title={t('form.moveDown', vars)}
          disabled={index === items.length - 1}
          onClick={() => move(index, index + 1)}
        >
          <span aria-hidden="true">↓</span>
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('form.removeItem', vars)}
          title={t('form.removeItem', vars)}
          onClick={() => remove(index)}
        >
          <span aria-hidden="true">✕</span>
        </ActionIcon>
      </Group>
    );
  };

  return (
    <Fieldset
      legend={<GroupLegend label={label} required={required} />}
      aria-describedby={describedBy || undefined}
      // A group with an error takes focus like an invalid input does (see the form's focus on error).
      data-nf-invalid={error ? 'true' : undefined}
      // A list has no input of its own: "go to the field" lands on its group.
      data-nf-field={name}
      tabIndex={-1}
    >
      <Stack gap="sm">
        {description || max !== undefined ? (
          <Group justify="space-between" gap="xs">
            <Text id={ids.description} size="sm" c="dimmed">
              {description}
            </Text>
            {max !== undefined ? (
              <Text size="xs" c={items.length > max ? 'red' : 'dimmed'}>
                {t('form.counter', { count: format.number(items.length), max: format.number(max) })}
              </Text>
            ) : null}
          </Group>
        ) : null}
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('form.noItems')}
          </Text>
        ) : null}
        {items.map((item, index) =>
          itemEntity ? (
            <Fieldset
              key={item.id}
              legend={t('form.itemNumber', { item: itemName, number: index + 1 })}
              variant="unstyled"
              p="sm"
              style={{
                border: '1px solid var(--mantine-color-default-border)',
                borderRadius: 'var(--mantine-radius-sm)',
              }}
            >
              <Stack gap="sm">
                {itemEntity.fields.filter(isWritable).map((nested) => (
                  <FieldInput
                    key={nested.name}
                    field={nested}
                    name={`${name}.${index}.${nested.name}`}
                    scope={{ root: itemEntity.name, path: [nested.name], owner: itemEntity.name }}
                  />
                ))}
                <ItemError name={`${name}.${index}.root`} />
                <Group justify="flex-end">{actions(index)}</Group>
              </Stack>
            </Fieldset>
          ) : (
            <Group key={item.id} align="flex-end" gap="xs" wrap="nowrap">
              <div style={{ flex: 1, minWidth: 0 }}>
                <FieldInput
                  field={itemField}
                  name={`${name}.${index}.value`}
                  label={t('form.itemNumber', { item: itemName, number: index + 1 })}
                />
              </div>
              {actions(index)}
            </Group>
          ),
        )}
        <div>
          <Button
            variant="light"
            disabled={max !== undefined && items.length >= max}
            onClick={() => {
              append(newListItem(model, field.of) as Record<string, unknown>);
              clearErrors(`${name}.root`);
            }}
          >
            {t('form.addItem', { item: inSentence(itemName) })}
          </Button>
        </div>
        {error ? (
          <Text id={ids.error} size="sm" c="red">
            {error}
          </Text>
        ) : null}
      </Stack>
    </Fieldset>
  );
}

/** An error about one item as a whole (an API's `/lines/2`), shown inside that item. */
function ItemError({ name }: { name: string }) {
  const error = useFieldError(name);
  return error ? (
    <Text size="sm" c="red" data-nf-invalid="true" tabIndex={-1}>
      {error}
    </Text>
  ) : null;
}
