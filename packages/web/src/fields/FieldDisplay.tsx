import { Anchor, Text, VisuallyHidden } from '@mantine/core';
import { type Field, type FieldKind, isPersonField, type JsonValue, type Model } from '@ninefold/model';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { linkTarget, visibleControls } from '../app/link-policy';
import { SafeMarkdown } from '../app/SafeMarkdown';
import { useSpec } from '../app/SpecContext';
import { useExtension } from '../extension/ExtensionContext';
import { fieldOverride } from '../extension/field-overrides';
import { OverrideBoundary, useOriginal } from '../extension/OverrideBoundary';
import type { FieldDisplayOverrideProps } from '../extension/types';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { type DisplayProps, type TotalRow, textOf } from './display-props';
import { FileDisplay } from './FileDisplay';
import { ListDisplay } from './ListDisplay';
import { ObjectDisplay } from './ObjectDisplay';
import { ReferenceDisplay } from './ReferenceDisplay';
import { StatusBadge } from './StatusBadge';
import { machineFor } from './state-tone';

addEnglish('form', formMessages);

const PersonDisplay = lazy(() => import('./PersonDisplay'));

export interface FieldDisplayProps {
  field: Field;
  value: JsonValue | undefined;
  /** The model; taken from the app's context when left out. */
  model?: Model;
  /** The entity the field belongs to: a state field of point 4 then shows as a badge. */
  entity?: string;
  /** Where the value is shown, for an extension's display of the field. Default: a record's details. */
  place?: 'cell' | 'details';
  /** A list's totals, shown under its table. */
  totals?: readonly TotalRow[];
}

/**
 * A field's value, read-only, the way its kind reads: amounts in their currency, dates in the person's
 * language, references by the name of the record they point at, Markdown rendered safely. Usable on its
 * own (a table cell) as well as in a record's details. An empty value reads "not set".
 */
export function FieldDisplay({ field, value, model, entity, place = 'details', totals }: FieldDisplayProps) {
  const spec = useSpec();
  const extension = useExtension();
  if (isEmpty(value)) return <EmptyValue />;
  // The registry is keyed by kind, so this field's display takes this field's type.
  const Display = fieldDisplays[field.kind] as ComponentType<DisplayProps<FieldKind>>;
  const builtIn = (
    <Display
      field={field}
      value={value}
      model={model ?? spec.model}
      {...(entity ? { entity } : {})}
      {...(totals ? { totals } : {})}
    />
  );
  const found = fieldOverride(extension, entity, field, 'display');
  if (!found) return builtIn;
  return (
    <OverriddenDisplay
      Override={found.override}
      what={`display of ${entity === undefined ? field.name : `${entity}.${field.name}`}`}
      builtIn={builtIn}
      props={{ field, value, place, ...(entity ? { entity } : {}) }}
    />
  );
}

function OverriddenDisplay({
  Override,
  what,
  builtIn,
  props,
}: {
  Override: ComponentType<FieldDisplayOverrideProps>;
  what: string;
  builtIn: ReactNode;
  props: Omit<FieldDisplayOverrideProps, 'Original'>;
}) {
  const Original = useOriginal(builtIn);
  return (
    <OverrideBoundary what={what} fallback={builtIn} compact={props.place === 'cell'}>
      <Override {...props} Original={Original} />
    </OverrideBoundary>
  );
}

export function EmptyValue() {
  const { t } = useI18n();
  return (
    <Text span c="dimmed" size="sm">
      {t('form.notSet')}
    </Text>
  );
}

function isEmpty(value: JsonValue | undefined): value is undefined | null {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

function TextDisplay({ field, value }: DisplayProps<'text'>) {
  const { t } = useI18n();
  const raw = textOf(value);
  if (isPersonField(field)) {
    // Its code comes with the first person shown (a detail's "Entered by"), the id until then.
    return (
      <Suspense fallback={<Text span>{visibleControls(raw)}</Text>}>
        <PersonDisplay id={raw} />
      </Suspense>
    );
  }
  // Shown, not obeyed: a right-to-left override in data must not reorder what a person reads.
  const text = visibleControls(raw);
  if (
    field.format === 'email' &&
    /^[^@\s\u202A-\u202E\u2066-\u2069]+@[^@\s\u202A-\u202E\u2066-\u2069]+$/.test(raw)
  ) {
    return <Anchor href={`mailto:${raw}`}>{text}</Anchor>;
  }
  // A URL field may lead elsewhere (https only), and says so; any other text leads nowhere.
  const target = field.format === 'url' ? linkTarget(raw, { external: true }) : undefined;
  if (target?.kind === 'external') {
    return (
      <Anchor href={target.href} target="_blank" rel="noopener noreferrer nofollow">
        {text}
        <span aria-hidden="true"> ↗</span>
        <VisuallyHidden component="span"> ({t('form.leavesSite')})</VisuallyHidden>
      </Anchor>
    );
  }
  if (target) return <Anchor href={target.href}>{text}</Anchor>;
  return (
    <Text span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

function NumberDisplay({ value }: DisplayProps<'number' | 'integer'>) {
  const { format } = useI18n();
  return <Text span>{typeof value === 'number' ? format.number(value) : textOf(value)}</Text>;
}

function MoneyDisplay({ field, value }: DisplayProps<'money'>) {
  const { format } = useI18n();
  return <Text span>{typeof value === 'number' ? format.money(value, field.currency) : textOf(value)}</Text>;
}

function BooleanDisplay({ value }: DisplayProps<'boolean'>) {
  const { t } = useI18n();
  return <Text span>{value === true ? t('form.yes') : value === false ? t('form.no') : textOf(value)}</Text>;
}

function DateDisplay({ value }: DisplayProps<'date'>) {
  const { format } = useI18n();
  const text = textOf(value);
  return <time dateTime={text}>{format.date(text)}</time>;
}

function DateTimeDisplay({ value }: DisplayProps<'datetime'>) {
  const { format } = useI18n();
  const text = textOf(value);
  return <time dateTime={text}>{format.datetime(text)}</time>;
}

function EnumDisplay({ field, value, model, entity }: DisplayProps<'enum'>) {
  const text = textOf(value);
  const machine = entity ? machineFor(model, entity, field.name) : undefined;
  if (machine) return <StatusBadge machine={machine} value={text} />;
  const label = field.values.find((candidate) => candidate.value === text)?.label ?? text;
  return <Text span>{label}</Text>;
}

function MarkdownDisplay({ value }: DisplayProps<'markdown'>) {
  return <SafeMarkdown>{textOf(value)}</SafeMarkdown>;
}

/** One display per kind of field; a new kind does not compile until it has one. */
export const fieldDisplays: { [K in FieldKind]: ComponentType<DisplayProps<K>> } = {
  text: TextDisplay,
  number: NumberDisplay,
  integer: NumberDisplay,
  money: MoneyDisplay,
  boolean: BooleanDisplay,
  date: DateDisplay,
  datetime: DateTimeDisplay,
  enum: EnumDisplay,
  markdown: MarkdownDisplay,
  reference: ReferenceDisplay,
  list: ListDisplay,
  object: ObjectDisplay,
  file: FileDisplay,
};
