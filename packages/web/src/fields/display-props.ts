import type { Field, FieldKind, JsonValue, Model } from '@ninefold/model';
import type { ReactNode } from 'react';
import { visibleControls } from '../app/link-policy';

/** What each kind's display receives: its own field type, a value that is not empty, and the model. */
export interface DisplayProps<K extends FieldKind> {
  field: Field & { kind: K };
  value: JsonValue;
  model: Model;
  entity?: string;
  /** Under a list's table: the record's totals of that list (see `listTotals`). */
  totals?: readonly TotalRow[];
}

/** One total under a table: its label, and its value as the record's own field shows it. */
export interface TotalRow {
  label: string;
  value: ReactNode;
}

/** Text of any value, for a display that receives a value of another type than its field says. */
export function textOf(value: JsonValue): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * A value as text for a label a person reads (a record's name in a title, a link, a choice): with its
 * bidirectional controls shown rather than obeyed, so that a name cannot reorder what is around it.
 */
export function labelOf(value: JsonValue): string {
  return visibleControls(textOf(value));
}

/** A value that reads as a block (a text, an address, lines): it takes a row of its own, never a cell. */
export function readsAsBlock(field: Pick<Field, 'kind'>): boolean {
  return field.kind === 'markdown' || field.kind === 'object' || field.kind === 'list';
}
