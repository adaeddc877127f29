import { type Entity, type Field, fromPointer, type Model } from '@ninefold/model';
import { embeddedEntity } from './form-values';

/** Where a field error lands in the form. */
export interface ErrorTarget {
  /** react-hook-form path: `lines.0.quantity`, `tags.2.value`, or `lines.root` for the list as a whole. */
  name: string;
  /** The top-level field the pointer starts at, to tell whether the form shows it at all. */
  field: string;
}

/**
 * Maps a JSON Pointer into a record (from `validateRecord` or an API problem) to the form path of the
 * input that shows it. A pointer at a list or an embedded object as a whole lands on the group's `root`
 * (react-hook-form's place for a field array's own error); a pointer below a file or a scalar (`/attachment/size`)
 * lands on that field. Undefined when the pointer names no field of the entity, or is empty (the record
 * as a whole).
 *
 * @example
 * pointerToFormPath(model, order, '/lines/0/quantity') // { name: 'lines.0.quantity', field: 'lines' }
 * pointerToFormPath(model, customer, '/tags/1')        // { name: 'tags.1.value', field: 'tags' }
 */
export function pointerToFormPath(model: Model, entity: Entity, pointer: string): ErrorTarget | undefined {
  if (pointer === '' || !pointer.startsWith('/')) return undefined;
  const segments = fromPointer(pointer);
  const first = segments[0] ?? '';
  let current: Entity | undefined = entity;
  let field: Field | undefined;
  const path: string[] = [];
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] ?? '';
    if (field?.kind === 'list' && /^\d+$/.test(segment)) {
      path.push(segment);
      if (field.of.kind === 'object') {
        current = embeddedEntity(model, field);
        field = undefined;
        continue;
      }
      // A scalar item is wrapped as `{ value }` in the form.
      return { name: [...path, 'value'].join('.'), field: first };
    }
    if (field && field.kind !== 'object') break;
    const next: Field | undefined = current?.fields.find((candidate) => candidate.name === segment);
    if (!next) {
      if (path.length === 0) return undefined;
      break;
    }
    field = next;
    path.push(next.name);
    current = next.kind === 'object' ? embeddedEntity(model, next) : current;
  }
  if (path.length === 0) return undefined;
  const group = field === undefined || field.kind === 'list' || field.kind === 'object';
  return { name: group ? [...path, 'root'].join('.') : path.join('.'), field: first };
}
