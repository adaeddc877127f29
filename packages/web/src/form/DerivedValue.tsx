import { derivedValues, type Entity, type Field, type JsonValue } from '@ninefold/model';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { useSpec } from '../app/SpecContext';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { derivedInputs } from './derived-inputs';
import { forValidation, fromFormValues } from './form-values';
import { ReadOnlyValue } from './ReadOnlyValue';

addEnglish('form', formMessages);

/**
 * A derived field's value computed live from what is typed, with the same CEL expression the API uses.
 * Only the inputs its expression reads are watched, so typing elsewhere does not recompute it. Shown,
 * never sent.
 */
export function DerivedValue({
  field,
  entity,
  inputs,
  stored,
}: {
  field: Field;
  entity: Entity;
  inputs: readonly Field[];
  stored: Record<string, JsonValue> | undefined;
}) {
  const { model } = useSpec();
  const { t } = useI18n();
  const names = useMemo(() => {
    const all = inputs.map((input) => input.name);
    return derivedInputs(field.derived ?? '', all) ?? all;
  }, [field.derived, inputs]);
  const watched = useWatch({ name: names }) as unknown[];
  const typed = inputs.filter((input) => names.includes(input.name));
  const values = Object.fromEntries(names.map((name, index) => [name, watched[index]]));
  const others = Object.fromEntries(Object.entries(stored ?? {}).filter(([name]) => !names.includes(name)));
  const record = { ...others, ...forValidation(fromFormValues(model, typed, values)) };
  const value = derivedValues(model, entity.name, record)[field.name];
  return (
    <ReadOnlyValue field={field} value={value} entity={entity.name} description={t('form.derivedHint')} />
  );
}
