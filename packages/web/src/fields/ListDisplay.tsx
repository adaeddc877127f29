import { List, Text } from '@mantine/core';
import { entityLabel, type Field, findEntity } from '@ninefold/spec';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { type DisplayProps, textOf } from './display-props';
import { FieldDisplay } from './FieldDisplay';

addEnglish('form', formMessages);

/** A list's items, each with its item type's display; items of embedded objects are numbered groups. */
export function ListDisplay({ field, value, model }: DisplayProps<'list'>) {
  const { t } = useI18n();
  if (!Array.isArray(value)) return <Text span>{textOf(value)}</Text>;
  // Items have a type but no name of their own; they borrow the list's.
  const item = { ...field.of, name: field.name } as Field;
  const itemEntity = field.of.kind === 'object' ? findEntity(model, field.of.entity) : undefined;
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
