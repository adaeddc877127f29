// Reading back a Ninefold contract (docs/contract.md): a document whose root says `x-ninefold` carries in
// its `x-ninefold-*` extensions what OpenAPI cannot say. Those parts are read as the specification's own
// document form, through the same checks as a YAML specification; the paths are read as any document's.
import {
  CONTRACT_VERSION,
  type Issue,
  type LoadResult,
  loadSpec,
  type Model,
  ROOT_EXTENSIONS,
  toDocument,
} from '@ninefold/model';
import type { ImportReport, ReportEntry } from './import-report';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The contract version a document declares, or undefined for any other OpenAPI document. */
export function contractVersion(document: unknown): number | undefined {
  if (!isObject(document)) return undefined;
  const marker = document['x-ninefold'];
  return isObject(marker) && typeof marker.version === 'number' ? marker.version : undefined;
}

/**
 * The document without the prototype API's own services (`x-ninefold-service`: the session, history,
 * names, files…), which are not calls of the specification and must not come back as calls or screens.
 */
export function withoutServices<T>(document: T): T {
  if (!isObject(document) || !isObject(document.paths)) return document;
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) {
      paths[path] = item;
      continue;
    }
    const kept = Object.fromEntries(
      Object.entries(item).filter(
        ([, operation]) => !(isObject(operation) && 'x-ninefold-service' in operation),
      ),
    );
    if (Object.keys(kept).some((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key)))
      paths[path] = kept;
  }
  return { ...document, paths } as T;
}

/**
 * The model a contract describes: the calls as the import read them from the paths, and every other
 * point from the extensions, loaded and checked like a specification. Each issue names the extension
 * it comes from. A contract of another version is read as a plain OpenAPI document, with a warning.
 */
export function readContract(
  document: JsonObject,
  imported: Model,
  file: string,
  report: ImportReport,
): { result: LoadResult; issues: Issue[] } | { issues: Issue[] } {
  const version = contractVersion(document);
  const at = { file, line: 1, column: 1 };
  if (version !== CONTRACT_VERSION) {
    return {
      issues: [
        {
          code: 'invalid-value',
          severity: 'warning',
          message: `x-ninefold says version ${version}; this Ninefold reads version ${CONTRACT_VERSION}, so the document was read as plain OpenAPI and its x-ninefold-* extensions were left aside.`,
          path: ['x-ninefold'],
          source: at,
        },
      ],
    };
  }
  const importedDoc = toDocument(imported) as JsonObject;
  const doc: JsonObject = {
    ...(typeof (document.info as JsonObject)?.title === 'string'
      ? { title: (document.info as JsonObject).title }
      : {}),
  };
  for (const [point, key] of Object.entries(ROOT_EXTENSIONS)) {
    doc[point] = key in document ? document[key] : importedDoc[point];
    note(
      report,
      point,
      `/${key}`,
      key in document ? `${key}: read whole` : `${key} is absent: read from the paths`,
    );
  }
  doc.entities = contractEntities(document, importedDoc.entities);
  const marker = document['x-ninefold'] as JsonObject;
  doc.calls =
    marker.conventional === true
      ? typeof marker.calls === 'string'
        ? marker.calls
        : 'Not shown'
      : contractCalls(document, marker, importedDoc.calls);
  if (isObject(document['x-ninefold-notes'])) doc.notes = document['x-ninefold-notes'];
  const result = loadSpec(JSON.stringify(doc), { file, format: 'json' });
  const issues = result.issues.map((issue) => ({
    ...issue,
    message: `${extensionOf(issue.path)}: ${issue.message}`,
    source: at,
  }));
  return { result, issues };
}

/** Point 3 from each schema's `x-ninefold-entity` and its properties' `x-ninefold-field`. */
function contractEntities(document: JsonObject, imported: unknown): Record<string, unknown> | string {
  const schemas = isObject(document.components) ? document.components.schemas : undefined;
  const importedEntities = isObject(imported) ? imported : {};
  const entities: Record<string, unknown> = {};
  if (!isObject(schemas)) return 'Not shown';
  for (const schema of Object.values(schemas)) {
    if (!isObject(schema) || !isObject(schema['x-ninefold-entity'])) continue;
    const { name, ...entity } = schema['x-ninefold-entity'];
    if (typeof name !== 'string') continue;
    const importedFields = (importedEntities[name] as JsonObject | undefined)?.fields;
    const fields: JsonObject = {};
    for (const [field, property] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
      // A property a person added to the schema without the extension is read as any document's.
      const written = isObject(property) ? property['x-ninefold-field'] : undefined;
      const value = written ?? (isObject(importedFields) ? importedFields[field] : undefined);
      if (value !== undefined) fields[field] = value;
    }
    entities[name] = { ...entity, fields };
  }
  return Object.keys(entities).length ? entities : 'Not shown';
}

/** Point 7 from each operation's `x-ninefold-call`; an operation without one is read as any document's. */
function contractCalls(document: JsonObject, marker: JsonObject, imported: unknown): JsonObject {
  const importedOps = isObject(imported) && isObject(imported.operations) ? imported.operations : {};
  const operations: JsonObject = {};
  for (const item of Object.values(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (
        !isObject(operation) ||
        typeof operation.operationId !== 'string' ||
        'x-ninefold-service' in operation
      ) {
        continue;
      }
      const name = operation.operationId;
      const written = operation['x-ninefold-call'];
      if (written !== undefined) operations[name] = written;
      else if (importedOps[name] !== undefined) operations[name] = importedOps[name];
    }
  }
  const baseUrl = typeof marker.baseUrl === 'string' ? marker.baseUrl : undefined;
  return { ...(baseUrl === undefined ? {} : { baseUrl }), operations };
}

function extensionOf(path: readonly (string | number)[]): string {
  const point = String(path[0] ?? '');
  if (point === 'entities')
    return `components.schemas (x-ninefold-entity, x-ninefold-field) ${path.slice(1).join('.')}`;
  if (point === 'calls') return `paths ${path.slice(1).join('.')}`;
  const key = (ROOT_EXTENSIONS as Record<string, string>)[point];
  return key ? `${key} ${path.slice(1).join('.')}`.trim() : 'x-ninefold';
}

function note(report: ImportReport, point: string, pointer: string, message: string): void {
  const entries = (report.points as Record<string, ReportEntry[]>)[point];
  if (!entries) return;
  entries.push({ kind: 'mapped', pointer, message });
  report.counts.mapped += 1;
}
