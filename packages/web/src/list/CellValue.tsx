import type { Field, JsonValue, Model, Tone } from '@ninefold/spec';
import { Link } from '../app/router';
import { machineFor, TONE_COLORS } from '../fields/state-tone';
import { useI18n } from '../i18n/I18nProvider';
import { cellText } from './cell-text';
import { ReferenceCell } from './ReferenceCell';

export interface CellValueProps {
  model: Model;
  entity: string;
  field: Field;
  value: JsonValue | undefined;
  /** Where the cell links to when it is the record's link column. */
  recordHref?: string | undefined;
  /** The record's key, the link's text when the cell itself is empty. */
  recordKey?: string | undefined;
}

/**
 * One table cell: the value as text by its field's kind, a state badge for a state field, and a link to
 * the referenced record, by its name, for a reference. Cells are plain elements styled in list.css: a
 * page renders hundreds of them, and Mantine's components cost several times more each.
 */
export function CellValue({ model, entity, field, value, recordHref, recordKey }: CellValueProps) {
  const { t, tn, format } = useI18n();
  const text = cellText(field, value, {
    model,
    format,
    yes: t('list.yes'),
    no: t('list.no'),
    items: (count) => tn('list.items', count),
  });
  if (recordHref !== undefined) {
    return (
      <Link className="nf-cell-link" to={recordHref}>
        {text === '' ? (recordKey ?? '') : text}
      </Link>
    );
  }
  if (text === '') return null;
  const tone = field.kind === 'enum' ? stateTone(model, entity, field.name, value) : undefined;
  if (tone !== undefined) {
    return (
      <span className="nf-badge" data-color={TONE_COLORS[tone]}>
        {text}
      </span>
    );
  }
  if (field.kind === 'reference') {
    // The referenced record's name, read once per distinct record and cached with every other read of
    // it; only the rows on screen render, so a long list costs no more than its visible references.
    return <ReferenceCell field={field} value={value ?? null} model={model} />;
  }
  return <>{text}</>;
}

/** The tone of a state of the entity's state machine (point 4), when this field holds its state. */
function stateTone(
  model: Model,
  entity: string,
  field: string,
  value: JsonValue | undefined,
): Tone | undefined {
  if (typeof value !== 'string') return undefined;
  const state = machineFor(model, entity, field)?.states.find((item) => item.name === value);
  return state ? (state.tone ?? 'neutral') : undefined;
}
