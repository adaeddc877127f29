import { Box, Text } from '@mantine/core';
import { type Field, fieldLabel, type JsonValue } from '@ninefold/model';
import { useId } from 'react';
import { FieldDisplay } from '../fields/FieldDisplay';

/**
 * A value a form shows but does not let the person change (an order's number, its computed total),
 * in an `<output>` labelled like an input so that it reads as part of the form.
 */
export function ReadOnlyValue({
  field,
  value,
  entity,
  description,
}: {
  field: Field;
  value: JsonValue | undefined;
  entity: string;
  description?: string;
}) {
  const id = useId();
  return (
    <div>
      <Text component="label" htmlFor={id} size="sm" fw={500} display="block">
        {fieldLabel(field)}
      </Text>
      {description ? (
        <Text id={`${id}-description`} size="xs" c="dimmed">
          {description}
        </Text>
      ) : null}
      <Box
        component="output"
        id={id}
        display="block"
        mt={4}
        aria-describedby={description ? `${id}-description` : undefined}
      >
        <FieldDisplay field={field} value={value} entity={entity} />
      </Box>
    </div>
  );
}
