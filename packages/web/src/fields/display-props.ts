import type { Field, FieldKind, JsonValue, Model } from '@ninefold/spec';

/** What each kind's display receives: its own field type, a value that is not empty, and the model. */
export interface DisplayProps<K extends FieldKind> {
  field: Field & { kind: K };
  value: JsonValue;
  model: Model;
  entity?: string;
}

/** Text of any value, for a display that receives a value of another type than its field says. */
export function textOf(value: JsonValue): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
