import type { MapContext } from './context';
import { deref, isRecord, schemaRefName } from './document';
import type { MappedEntities } from './entities';
import type { OperationInfo } from './operations';

/** Calls named in one report entry before "and N more". */
const NAMED_CALLS = 3;

/**
 * Says in the report why each object schema of `components.schemas` is no entity: it wraps the answers
 * of calls (their response shapes describe it), only error answers use it (point 8 maps those), or
 * nothing the client does reaches it. Each with the schema's pointer.
 *
 * @example
 * ```ts
 * reportUnused(context, mapper.finish(), operations);
 * // skipped /components/schemas/BasicError: schema "BasicError" is used only by error answers ...
 * ```
 */
export function reportUnused(context: MapContext, mapped: MappedEntities, operations: OperationInfo[]): void {
  if (mapped.everything) {
    if (mapped.entities.length > 0)
      context.report.add(
        'entities',
        'inferred',
        '/components/schemas',
        'every object schema is mapped: no operation names one as its answer or body, so the schemas are all the document says about its data',
      );
    return;
  }
  if (mapped.unused.length === 0) return;
  const wrapping = new Map<string, OperationInfo[]>();
  for (const info of operations) {
    const name = info.response.wrapper;
    if (name === undefined) continue;
    const list = wrapping.get(name);
    if (list === undefined) wrapping.set(name, [info]);
    else list.push(info);
  }
  const errorOnly = errorSchemas(context, operations);
  for (const draft of mapped.unused) {
    const schemaName = draft.schemaName ?? draft.name;
    const wrapped = wrapping.get(schemaName);
    if (wrapped !== undefined) {
      const first = wrapped[0];
      const holds =
        first?.response.shape === 'envelope'
          ? `its "${first.response.items}" holds the records`
          : `its "${first?.response.field}" holds the answer`;
      const calls = wrapped.slice(0, NAMED_CALLS).map((info) => `${info.method.toUpperCase()} ${info.path}`);
      const more = wrapped.length > NAMED_CALLS ? ` and ${wrapped.length - NAMED_CALLS} more` : '';
      context.report.add(
        'entities',
        'inferred',
        draft.pointer,
        `schema "${schemaName}" wraps the answer of ${calls.join(', ')}${more} (${holds}): the calls' response shapes describe it, so it is no entity`,
      );
    } else if (errorOnly.has(schemaName)) {
      context.report.add(
        'entities',
        'skipped',
        draft.pointer,
        `schema "${schemaName}" is used only by error answers: the error catalogue (point 8) maps those by status, so it is no entity`,
      );
    } else {
      context.report.add(
        'entities',
        'skipped',
        draft.pointer,
        `schema "${schemaName}" is left out: no call uses it, as its answer, its body or a field of either`,
      );
    }
  }
}

/** Names of the schemas that error answers (4xx, 5xx, default) reach, through any depth of refs. */
function errorSchemas(context: MapContext, operations: OperationInfo[]): Set<string> {
  const names = new Set<string>();
  const visited = new WeakSet<object>();
  const walk = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object' || depth > 64 || visited.has(value)) return;
    visited.add(value);
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    const name = schemaRefName(value);
    if (name !== undefined) names.add(name);
    if (typeof (value as { $ref?: unknown }).$ref === 'string') {
      walk(deref(context.doc, value), depth + 1);
      return;
    }
    for (const key in value) walk((value as Record<string, unknown>)[key], depth + 1);
  };
  for (const info of operations) {
    const responses = info.operation.responses;
    if (!isRecord(responses)) continue;
    for (const code in responses) {
      if (/^[45]/.test(code) || code === 'default') walk(deref(context.doc, responses[code]), 0);
    }
  }
  return names;
}
