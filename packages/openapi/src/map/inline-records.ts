import { singularize } from 'inflection';
import type { MapContext } from './context';
import { deref, isRecord, pascal, pointer, schemaRefName, uniqueEntityName } from './document';
import {
  paramOf,
  pickContent,
  recordByFields,
  segmentsOf,
  successResponse,
  withoutFormatSuffix,
} from './operations';
import type { SameSchemaIndex } from './same-schema';
import { type EntityDraft, isObjectSchema, lazyDraft } from './schemas';

/**
 * Records that a document describes only inline, in the answer of a list call (SpaceTraders has no
 * `components.schemas` at all): each becomes an entity draft named by its collection's path
 * (`/systems/{systemSymbol}/waypoints` -> `Waypoint`), and the report says the name is inferred. The
 * item read and the other calls then find it as a copy of a named schema, as they do any other.
 *
 * @example
 * collectInlineRecords(context, drafts, named, taken); // drafts gains "System" for GET /systems
 */
export function collectInlineRecords(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  named: SameSchemaIndex<EntityDraft>,
  taken: Set<string>,
): void {
  const paths = context.doc.paths;
  if (!isRecord(paths)) return;
  // Inline records that hold a subset of a named schema's fields are that schema's (as the calls will
  // read them); the copy keeps the records named here out of that comparison.
  const components = new Map(drafts);
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(context.doc, rawItem);
    const get = isRecord(item) ? deref(context.doc, item.get) : undefined;
    const last = segmentsOf(withoutFormatSuffix(path)).at(-1);
    if (!isRecord(get) || last === undefined || paramOf(last) !== undefined) continue;
    const found = readSafely(() => inlineItems(context, path, get));
    if (found === undefined) continue;
    const { schema, at } = found;
    // A copy of a named schema, or of a record named here already (`/my/ships` and
    // `/systems/{s}/ships` list the same one), is that record.
    if (named.find(schema) !== undefined) continue;
    if (recordByFields(context, components, schema) !== undefined) continue;
    const wanted = pascal(singularize(last)) || 'Record';
    let name = uniqueEntityName(wanted, taken);
    while (drafts.has(name)) name = uniqueEntityName(wanted, taken);
    const draft = lazyDraft(context, { name, pointer: at, schema, schemaName: name }, schema);
    drafts.set(name, draft);
    named.add(schema, draft);
    context.report.add(
      'entities',
      'inferred',
      at,
      `the records that GET ${path} lists are inline, so entity "${name}" is named by its path: the document names no schema for them`,
    );
  }
}

/** The inline object schema of the records a list answers: a bare array's items, or an envelope's. */
function inlineItems(
  context: MapContext,
  path: string,
  get: Record<string, unknown>,
): { schema: Record<string, unknown>; at: string } | undefined {
  const success = successResponse(get.responses);
  if (success === undefined) return undefined;
  const [code, raw] = success;
  const response = deref(context.doc, raw);
  const picked = isRecord(response) ? pickContent(response.content) : undefined;
  if (picked === undefined || picked.encoding !== 'json') return undefined;
  const base = pointer('paths', path, 'get', 'responses', code, 'content', picked.type, 'schema');
  const answer = deref(context.doc, picked.media.schema);
  if (!isRecord(answer)) return undefined;
  let items: unknown;
  let at = `${base}/items`;
  if (answer.type === 'array' || answer.items !== undefined) items = answer.items;
  else if (isRecord(answer.properties)) {
    // An envelope has one array of objects beside its paging fields.
    const arrays = Object.entries(answer.properties).filter(([, value]) => {
      const inner = deref(context.doc, value);
      return isRecord(inner) && isObjectSchema(context, inner.items);
    });
    const [only] = arrays.length === 1 ? arrays : [];
    if (only === undefined) return undefined;
    items = (deref(context.doc, only[1]) as Record<string, unknown>).items;
    at = `${base}${pointer('properties', only[0], 'items')}`;
  }
  // A named schema is a record already; only inline ones need a name.
  if (items === undefined || schemaRefName(items) !== undefined) return undefined;
  const schema = deref(context.doc, items);
  return isRecord(schema) && isObjectSchema(context, schema) ? { schema, at } : undefined;
}

/** An operation that cannot be read is left out here: its own read, next, reports it where it is. */
function readSafely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
