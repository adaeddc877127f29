import {
  type Entity,
  type FieldError,
  findEntity,
  type JsonValue,
  type Model,
  toPointer,
} from '@ninefold/model';
import type { RecordKey, Store } from './store/store';

/**
 * Every reference in a record (at the top, inside embedded objects and in lists) must name a record that
 * exists; one that does not is a field error at its pointer, never a dangling row. One query per target.
 */
export async function checkReferences(
  model: Model,
  store: Store,
  entity: Entity,
  record: Record<string, JsonValue>,
): Promise<FieldError[]> {
  const wanted = new Map<string, Array<{ pointer: string; key: RecordKey }>>();
  collect(model, entity, record, '', wanted, 0);
  const errors: FieldError[] = [];
  for (const [target, uses] of wanted) {
    const existing = await store.existing(
      target,
      uses.map((use) => use.key),
    );
    const label = findEntity(model, target)?.label ?? target;
    for (const use of uses) {
      if (!existing.has(String(use.key))) {
        errors.push({
          pointer: use.pointer,
          code: 'rule',
          message: `There is no ${label} ${String(use.key)}.`,
        });
      }
    }
  }
  return errors;
}

function collect(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  prefix: string,
  wanted: Map<string, Array<{ pointer: string; key: RecordKey }>>,
  depth: number,
): void {
  if (depth > 8) return;
  for (const field of entity.fields) {
    const value = record[field.name];
    if (value === undefined || value === null) continue;
    const pointer = `${prefix}${toPointer([field.name])}`;
    const add = (target: string, key: JsonValue, at: string) => {
      if (typeof key !== 'string' && typeof key !== 'number') return;
      const uses = wanted.get(target) ?? [];
      uses.push({ pointer: at, key });
      wanted.set(target, uses);
    };
    if (field.kind === 'reference') add(field.entity, value, pointer);
    else if (field.kind === 'object' && isObject(value)) {
      const nested = findEntity(model, field.entity);
      if (nested) collect(model, nested, value, pointer, wanted, depth + 1);
    } else if (field.kind === 'list' && Array.isArray(value)) {
      const of = field.of;
      value.forEach((item, index) => {
        const at = `${pointer}/${index}`;
        if (of.kind === 'reference') add(of.entity, item, at);
        else if (of.kind === 'object' && isObject(item)) {
          const nested = findEntity(model, of.entity);
          if (nested) collect(model, nested, item, at, wanted, depth + 1);
        }
      });
    }
  }
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
