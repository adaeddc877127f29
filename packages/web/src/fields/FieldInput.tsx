import {
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { boundsOf, type Field, type FieldKind, fieldLabel, ruleHints } from '@ninefold/model';
import { type ComponentType, lazy, type ReactNode, Suspense, useId, useMemo, useState } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { withLaterStyles } from '../app/later-styles';
import { SafeMarkdown } from '../app/SafeMarkdown';
import { useSpec } from '../app/SpecContext';
import { useExtension } from '../extension/ExtensionContext';
import { fieldOverride } from '../extension/field-overrides';
import { OverrideBoundary, useOriginal } from '../extension/OverrideBoundary';
import type { FieldInputOverrideProps } from '../extension/types';
import { useFieldError } from '../form/useFieldError';
import { useRegister } from '../form/useRegister';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { boundHint, hintText } from './bound-hint';
import { CopyFrom } from './CopyFrom';
import { currencyStep } from './currency-step';
import { FilePicker } from './FilePicker';
import { ListInput } from './ListInput';
import { ObjectInput } from './ObjectInput';
import { ReferenceInput } from './ReferenceInput';

addEnglish('form', formMessages);

const LazyDateInput = lazy(withLaterStyles(() => import('./DateInput')));

export type Bounds = ReturnType<typeof boundsOf>;

/** Where a field sits, for the constraints of point 5: `Order` › `shippingAddress.postcode` of `Address`. */
export interface BoundsScope {
  /** The entity whose constraints name the path (the form's entity, or a list item's). */
  root: string;
  /** Field names from `root` down to this field. */
  path: readonly string[];
  /** The entity the field itself belongs to. */
  owner: string;
}

export interface FieldInputProps {
  field: Field;
  /** The react-hook-form path of the value: `name`, `shippingAddress.postcode`, `lines.0.quantity`. */
  name: string;
  /** Where the field's constraints are found; none for the items of a list of scalars. */
  scope?: BoundsScope;
  /** Replaces the field's label, e.g. `Tags 2` for a list item. */
  label?: string;
}

/** What each kind's input receives: its own field type, its form path, and what to say around it. */
export interface InputProps<K extends FieldKind> {
  field: Field & { kind: K };
  name: string;
  label: string;
  description: string | undefined;
  required: boolean;
  bounds: Bounds;
  scope: BoundsScope | undefined;
}

const NO_BOUNDS: Bounds = { constraints: undefined };

/**
 * The input for one field, chosen by its kind: labelled with the field's label, described by its help
 * and the hint for its bounds, marked required when point 5 says so, and showing its error (linked with
 * `aria-invalid` and `aria-describedby`). Inputs are uncontrolled where the DOM can hold the value, so a
 * keystroke re-renders nothing but, at most, the field's own counter.
 */
export function FieldInput({ field, name, scope, label }: FieldInputProps) {
  const { model } = useSpec();
  const i18n = useI18n();
  // Scopes are built afresh on each render; their content is what identifies them.
  const scopeKey = scope ? JSON.stringify([scope.root, scope.owner, scope.path]) : '';
  const bounds = useMemo(() => {
    if (!scopeKey) return NO_BOUNDS;
    const [root, owner, path] = JSON.parse(scopeKey) as [string, string, string[]];
    return boundsOf(model, root, path, owner);
  }, [model, scopeKey]);
  const hint = boundHint(i18n, field, bounds);
  const ruleHintTexts = useMemo(() => {
    if (!scopeKey) return [];
    const [root, , path] = JSON.parse(scopeKey) as [string, string, string[]];
    return ruleHints(model, root, path);
  }, [model, scopeKey]);
  const description = hintText(field.help, hint, ruleHintTexts, bounds);
  // The registry is keyed by kind, so this field's input takes this field's type.
  const Input = fieldInputs[field.kind] as ComponentType<InputProps<FieldKind>>;
  const props: InputProps<FieldKind> = {
    field,
    name,
    label: label ?? fieldLabel(field),
    description,
    required: bounds.constraints?.required === true,
    bounds,
    scope,
  };
  const found = fieldOverride(useExtension(), scope?.owner, field, 'input');
  const owner = scope?.owner;
  const copy =
    field.copyFrom !== undefined && owner !== undefined ? (
      <CopyFrom field={field} name={name} owner={owner} />
    ) : null;
  if (!found) {
    return (
      <>
        <Input {...props} />
        {copy}
      </>
    );
  }
  return (
    <>
      <OverriddenInput
        Override={found.override}
        what={`input of ${owner === undefined ? field.name : `${owner}.${field.name}`}`}
        builtIn={<Input {...props} />}
        props={props}
      />
      {copy}
    </>
  );
}

/**
 * An extension's input: a controlled component on the form's value, so that a widget (stars, a map)
 * needs no knowledge of the form library; the form's rules check its value as any input's.
 */
function OverriddenInput({
  Override,
  what,
  builtIn,
  props,
}: {
  Override: ComponentType<FieldInputOverrideProps>;
  what: string;
  builtIn: ReactNode;
  props: InputProps<FieldKind>;
}) {
  const { control, clearErrors, getFieldState } = useFormContext();
  const { field: controller } = useController({ name: props.name, control });
  const error = useFieldError(props.name);
  const Original = useOriginal(builtIn);
  return (
    <OverrideBoundary what={what} fallback={builtIn}>
      <Override
        field={props.field}
        name={props.name}
        label={props.label}
        description={props.description}
        required={props.required}
        value={controller.value}
        onChange={(value) => {
          controller.onChange(value);
          if (getFieldState(props.name).error) clearErrors(props.name);
        }}
        onBlur={controller.onBlur}
        error={error}
        Original={Original}
      />
    </OverrideBoundary>
  );
}

function numberBound(bounds: Bounds, end: 'min' | 'max'): number | undefined {
  const value = bounds[end]?.value;
  return typeof value === 'number' ? value : undefined;
}

const TEXT_TYPES: Record<string, string> = {
  email: 'email',
  url: 'url',
  uri: 'url',
  phone: 'tel',
  tel: 'tel',
  password: 'password',
};

/** Text longer than a line's worth gets a text area. */
const LONG_TEXT = 255;

function TextFieldInput({ field, name, label, description, required, bounds }: InputProps<'text'>) {
  const registration = useRegister(name);
  const error = useFieldError(name);
  const max = numberBound(bounds, 'max');
  const long = field.widget === 'textarea' || (max !== undefined && max > LONG_TEXT);
  const common = { label, description, required, error, ...registration };
  return (
    <Stack gap={2}>
      {long ? (
        <Textarea rows={4} resize="vertical" {...common} />
      ) : (
        <TextInput type={TEXT_TYPES[field.format ?? ''] ?? 'text'} {...common} />
      )}
      {max !== undefined ? <LengthCounter name={name} max={max} /> : null}
    </Stack>
  );
}

function MarkdownFieldInput({ name, label, description, required, bounds }: InputProps<'markdown'>) {
  const { t } = useI18n();
  const registration = useRegister(name);
  const error = useFieldError(name);
  const [preview, setPreview] = useState(false);
  const max = numberBound(bounds, 'max');
  return (
    <Stack gap={4}>
      <Textarea
        rows={6}
        resize="vertical"
        label={label}
        description={description}
        required={required}
        error={error}
        {...registration}
      />
      <Group justify="space-between" gap="xs">
        <Button
          variant="subtle"
          size="compact-sm"
          aria-pressed={preview}
          onClick={() => setPreview(!preview)}
        >
          {t('form.showPreview')}
        </Button>
        {max !== undefined ? <LengthCounter name={name} max={max} /> : null}
      </Group>
      {preview ? <MarkdownPreview name={name} label={label} /> : null}
    </Stack>
  );
}

/** Only mounted while the preview is shown, so the Markdown is rendered per keystroke only then. */
function MarkdownPreview({ name, label }: { name: string; label: string }) {
  const { t } = useI18n();
  const value = useWatch({ name }) as unknown;
  const text = typeof value === 'string' ? value : '';
  return (
    <Paper withBorder p="sm" role="region" aria-label={t('form.previewOf', { field: label })}>
      {text.trim() === '' ? (
        <Text c="dimmed">{t('form.previewEmpty')}</Text>
      ) : (
        <SafeMarkdown>{text}</SafeMarkdown>
      )}
    </Paper>
  );
}

/** "120 of 2,000": the one part of a text input that re-renders as the person types. */
function LengthCounter({ name, max }: { name: string; max: number }) {
  const { t, format } = useI18n();
  const value = useWatch({ name }) as unknown;
  const length = typeof value === 'string' ? [...value].length : 0;
  return (
    <Text size="xs" c={length > max ? 'red' : 'dimmed'} ta="end">
      {t('form.counter', { count: format.number(length), max: format.number(max) })}
    </Text>
  );
}

function NumberFieldInput({
  field,
  name,
  label,
  description,
  required,
  bounds,
}: InputProps<'number' | 'integer' | 'money'>) {
  const { t } = useI18n();
  const registration = useRegister(name);
  const error = useFieldError(name);
  const currency = field.kind === 'money' ? field.currency : undefined;
  const step = field.kind === 'integer' ? 1 : field.kind === 'money' ? currencyStep(currency) : 'any';
  const min = numberBound(bounds, 'min');
  const max = numberBound(bounds, 'max');
  const said = currency
    ? [description, t('form.hintCurrency', { currency })].filter(Boolean).join(' · ')
    : description;
  return (
    <TextInput
      type="number"
      inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
      step={step}
      {...(min === undefined ? {} : { min })}
      {...(max === undefined ? {} : { max })}
      label={label}
      description={said}
      required={required}
      error={error}
      rightSection={
        currency ? (
          <Text size="xs" c="dimmed" aria-hidden="true">
            {currency}
          </Text>
        ) : undefined
      }
      rightSectionWidth={currency ? 48 : undefined}
      {...registration}
    />
  );
}

function BooleanFieldInput({ name, label, description, required }: InputProps<'boolean'>) {
  const registration = useRegister(name);
  const error = useFieldError(name);
  return (
    <Checkbox label={label} description={description} required={required} error={error} {...registration} />
  );
}

function DateFieldInput(props: InputProps<'date' | 'datetime'>) {
  return props.field.kind === 'date' ? <DayFieldInput {...props} /> : <DateTimeFieldInput {...props} />;
}

/**
 * A day, typed in the person's language's order (Mantine's date input, loaded with the first one); the
 * browser's own input stands in while it loads, bound to the same value.
 */
function DayFieldInput({ name, label, description, required, bounds }: InputProps<'date' | 'datetime'>) {
  const { control, clearErrors, getFieldState } = useFormContext();
  const { field: controller } = useController({ name, control });
  const error = useFieldError(name);
  const end = (which: 'min' | 'max') => {
    const value = bounds[which]?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const value =
    typeof controller.value === 'string' && controller.value !== '' ? controller.value : undefined;
  const change = (day: string | undefined) => {
    if (getFieldState(name).error) clearErrors(name);
    controller.onChange(day ?? '');
  };
  const common = { label, description, required, error };
  return (
    <Suspense
      fallback={
        <TextInput
          type="date"
          {...common}
          value={value ?? ''}
          onChange={(event) => change(event.currentTarget.value || undefined)}
          onBlur={controller.onBlur}
        />
      }
    >
      <LazyDateInput
        {...common}
        value={value}
        onChange={change}
        onBlur={controller.onBlur}
        name={name}
        {...(end('min') ? { min: end('min') } : {})}
        {...(end('max') ? { max: end('max') } : {})}
      />
    </Suspense>
  );
}

function DateTimeFieldInput({ name, label, description, required }: InputProps<'date' | 'datetime'>) {
  const registration = useRegister(name);
  const error = useFieldError(name);
  return (
    <TextInput
      type="datetime-local"
      label={label}
      description={description}
      required={required}
      error={error}
      {...registration}
    />
  );
}

function EnumFieldInput({ field, name, label, description, required }: InputProps<'enum'>) {
  const { t } = useI18n();
  const registration = useRegister(name);
  const error = useFieldError(name);
  // An empty choice only where "none" is a possible answer or nothing has been chosen for the person.
  const withEmpty = !required || field.default === undefined;
  const data = [
    ...(withEmpty ? [{ value: '', label: t('form.choose') }] : []),
    ...field.values.map((value) => ({ value: value.value, label: value.label ?? value.value })),
  ];
  return (
    <NativeSelect
      label={label}
      description={description}
      required={required}
      error={error}
      data={data}
      {...registration}
    />
  );
}

/** One input per kind of field; a new kind does not compile until it has one. */
export const fieldInputs: { [K in FieldKind]: ComponentType<InputProps<K>> } = {
  text: TextFieldInput,
  markdown: MarkdownFieldInput,
  number: NumberFieldInput,
  integer: NumberFieldInput,
  money: NumberFieldInput,
  boolean: BooleanFieldInput,
  date: DateFieldInput,
  datetime: DateFieldInput,
  enum: EnumFieldInput,
  reference: ReferenceInput,
  list: ListInput,
  object: ObjectInput,
  file: FilePicker,
};

/** A group's label with the same required mark Mantine puts on inputs. */
export function GroupLegend({ label, required }: { label: string; required: boolean }): ReactNode {
  return (
    <>
      {label}
      {required ? (
        <Text span c="red" aria-hidden="true">
          {' *'}
        </Text>
      ) : null}
    </>
  );
}

/** An id for a group's description or error, to link from its fieldset. */
export function useGroupIds() {
  const base = useId();
  return { description: `${base}-description`, error: `${base}-error` };
}
