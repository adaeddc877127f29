import type { Entity, Field } from '@ninefold/model';
import type { MappedCall } from './calls';
import type { MapContext } from './context';
import { deref, isRecord, text } from './document';
import { successResponse } from './operations';

/** `$response.body#/supplierId`: a value of the answer's record, by its field. */
const BODY_FIELD = /^\$response\.body#\/([A-Za-z_][\w]*)$/;

/**
 * References from OpenAPI `links`: an answer's link to an operation that reads one record, whose key
 * it fills from a field of the answer (`GetSupplierById` with `id: $response.body#/supplierId`, as
 * Platformatic describes every foreign key), makes that field a reference to the record read, on the
 * entity answered and on the bodies that write it. Only a text or whole-number field becomes one; the
 * report names each.
 *
 * @example
 * ```ts
 * applyLinks(context, calls, entityIndex); // Part.supplierId: integer -> reference to Supplier
 * ```
 */
export function applyLinks(context: MapContext, calls: MappedCall[], entities: Map<string, Entity>): void {
  const byOperation = new Map<string, MappedCall>();
  for (const mapped of calls) {
    const id = text(mapped.info.operation.operationId);
    if (id !== undefined) byOperation.set(id, mapped);
  }
  for (const mapped of calls) {
    const source = mapped.call.response?.entity ?? mapped.call.entity;
    const success = successResponse(mapped.info.operation.responses);
    const response = success === undefined ? undefined : deref(context.doc, success[1]);
    if (source === undefined || !isRecord(response) || !isRecord(response.links)) continue;
    for (const [name, raw] of Object.entries(response.links)) {
      const link = deref(context.doc, raw);
      if (!isRecord(link) || !isRecord(link.parameters)) continue;
      const target = byOperation.get(text(link.operationId) ?? '');
      const entity = target?.call.entity;
      if (target === undefined || entity === undefined || target.call.purpose !== 'get') continue;
      const filled = Object.entries(link.parameters);
      const key = target.info.lastParam;
      const value = filled.length === 1 && filled[0]?.[0] === key ? filled[0]?.[1] : undefined;
      const field = typeof value === 'string' ? BODY_FIELD.exec(value)?.[1] : undefined;
      if (field === undefined || (entity === source && entities.get(source)?.key === field)) continue;
      const owners = new Set([
        source,
        ...calls
          .filter((other) => other.call.entity === source && other.call.body !== undefined)
          .map((other) => other.call.body?.entity ?? ''),
      ]);
      const changed = [...owners].filter((owner) => toReference(entities.get(owner), field, entity));
      if (changed.length > 0)
        context.report.add(
          'entities',
          'inferred',
          `${mapped.info.responsePointer ?? mapped.info.pointer}/links/${name}`,
          `field "${field}" of ${changed.join(', ')} is a reference to "${entity}": the answer's link "${name}" reads that record with it`,
        );
    }
  }
}

function toReference(entity: Entity | undefined, name: string, target: string): boolean {
  const index = entity?.fields.findIndex((field) => field.name === name) ?? -1;
  const field = index >= 0 ? entity?.fields[index] : undefined;
  if (entity === undefined || field === undefined) return false;
  if (field.kind === 'reference') return false;
  if (field.kind !== 'integer' && field.kind !== 'text') return false;
  const { kind: _kind, ...rest } = field as Field & { format?: string };
  delete rest.format;
  entity.fields[index] = { ...rest, kind: 'reference', entity: target } as Field;
  return true;
}
