import { toPointer } from '../issues';
import { entityLabel, findEntity } from '../lookup';
import type { Entity, JsonValue, Model } from '../model';
import type { RecordReader } from './records';
import type { FieldError } from './validate';

// The references of point 3 a write must keep whole: every key a record names exists, and a record still
// named by another is not deleted. The prototype API reads with SQL (its foreign keys stay the last
// guard against a race); the tab's API and the memory provider read their arrays. The words are here once.

type Key = string | number;

/**
 * A field error for every reference in `record` (at the top, inside embedded objects, in lists) that
 * names no record, at its pointer. Keys of one target are asked together when the reader can.
 *
 * @example
 * ```ts
 * await referenceErrors(model, order, { customer: 99 }, reader);
 * // [{ pointer: '/customer', code: 'rule', message: 'There is no Customer 99.' }]
 * ```
 */
export async function referenceErrors(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  reader: RecordReader,
): Promise<FieldError[]> {
  const wanted = new Map<string, Array<{ pointer: string; key: Key }>>();
  collect(model, entity, record, '', wanted, 0);
  const errors: FieldError[] = [];
  for (const [target, uses] of wanted) {
    const keys = uses.map((use) => use.key);
    const existing = reader.existing
      ? await reader.existing(target, keys)
      : new Set(
          (await Promise.all(keys.map(async (key) => ((await reader.lookup(target, key)) ? key : undefined))))
            .filter((key) => key !== undefined)
            .map(String),
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

/**
 * The label (lower case) of an entity whose records still name this one, which a delete would leave
 * dangling; undefined when none does.
 */
export async function stillReferencedBy(
  model: Model,
  entity: Entity,
  key: JsonValue,
  reader: RecordReader,
): Promise<string | undefined> {
  if (key === null || key === undefined) return undefined;
  for (const other of model.entities.shown ? model.entities.items : []) {
    if (other.embedded) continue;
    const fields = other.fields.filter((field) => field.kind === 'reference' && field.entity === entity.name);
    if (fields.length === 0) continue;
    const named = await reader.aggregate({
      entity: other.name,
      fn: 'exists',
      where: {
        kind: 'any',
        of: fields.map((field) => ({ kind: 'compare', field: field.name, op: '==', value: key })),
      },
    });
    if (named === true) return entityLabel(other).toLowerCase();
  }
  return undefined;
}

function collect(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  prefix: string,
  wanted: Map<string, Array<{ pointer: string; key: Key }>>,
  depth: number,
): void {
  if (depth > 8) return;
  const add = (target: string, key: JsonValue, at: string) => {
    if (typeof key !== 'string' && typeof key !== 'number') return;
    const uses = wanted.get(target) ?? [];
    uses.push({ pointer: at, key });
    wanted.set(target, uses);
  };
  for (const field of entity.fields) {
    const value = record[field.name];
    if (value === undefined || value === null) continue;
    const pointer = `${prefix}${toPointer([field.name])}`;
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
