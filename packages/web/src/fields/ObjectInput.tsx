import { Fieldset, Stack, Text } from '@mantine/core';
import { findEntity } from '@ninefold/model';
import { useSpec } from '../app/SpecContext';
import { isWritable } from '../form/form-fields';
import { useFieldError } from '../form/useFieldError';
import { FieldInput, GroupLegend, type InputProps, useGroupIds } from './FieldInput';

/** Embedded objects nest; past this depth the form stops, as the entity's JSON Schema does. */
const MAX_DEPTH = 8;

/** An embedded object (a shipping address): a group of inputs for the embedded entity's writable fields. */
export function ObjectInput({ field, name, label, description, required, scope }: InputProps<'object'>) {
  const { model } = useSpec();
  const entity = findEntity(model, field.entity);
  const error = useFieldError(`${name}.root`);
  const ids = useGroupIds();
  if (!entity || (scope?.path.length ?? 0) > MAX_DEPTH) return null;
  const describedBy = [description ? ids.description : '', error ? ids.error : ''].join(' ').trim();
  return (
    <Fieldset
      legend={<GroupLegend label={label} required={required} />}
      aria-describedby={describedBy || undefined}
      // A group with an error takes focus like an invalid input does (see the form's focus on error).
      data-nf-invalid={error ? 'true' : undefined}
      tabIndex={-1}
      variant="filled"
    >
      <Stack gap="sm">
        {description ? (
          <Text id={ids.description} size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
        {entity.fields
          .filter((nested) => isWritable(nested) && !nested.internal)
          .map((nested) => (
            <FieldInput
              key={nested.name}
              field={nested}
              name={`${name}.${nested.name}`}
              scope={{
                root: scope?.root ?? entity.name,
                path: [...(scope?.path ?? []), nested.name],
                owner: entity.name,
              }}
            />
          ))}
        {error ? (
          <Text id={ids.error} size="sm" c="red">
            {error}
          </Text>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
