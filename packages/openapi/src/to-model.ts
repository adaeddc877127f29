import { type Entity, type Issue, type Model, notShownModel } from '@ninefold/model';
import { createReportBuilder, type ImportReport } from './import-report';
import { mapCalls } from './map/calls';
import { guarded, type MapContext } from './map/context';
import { isRecord, type OpenApi3Like, text } from './map/document';
import { createEntityMapper, type ResourceFacts } from './map/entities';
import { mapErrors } from './map/errors';
import { collectInlineRecords } from './map/inline-records';
import { applyLinks } from './map/links';
import { type OperationInfo, readOperations } from './map/operations';
import { collectDrafts, namedSchemaIndex } from './map/schemas';
import { mapScreens } from './map/screens';
import { mapRoles } from './map/security';
import { mapStates } from './map/states';
import { reportUnused } from './map/unused';

export type { OpenApi3Like } from './map/document';

export interface ToModelResult {
  model: Model;
  report: ImportReport;
  issues: Issue[];
}

/**
 * Maps a bundled OpenAPI 3.0/3.1 document (every `$ref` internal) to the nine-point model, with a report
 * of what was mapped, inferred, left not shown or skipped, point by point, with JSON pointers. Never
 * throws: a failure in one operation or schema is an issue for it, and the rest still maps. A point
 * with nothing to map is not shown, with the reason.
 *
 * @example
 * ```ts
 * const { model, report, issues } = toModel(JSON.parse(text), { file: 'conduit.json' });
 * model.calls.shown && model.calls.items.length; // 19
 * console.log(formatImportReport(report));
 * ```
 */
export function toModel(
  document: OpenApi3Like,
  options: { file: string; clientId?: string; signInScheme?: string },
): ToModelResult {
  const report = createReportBuilder(options.file);
  const context: MapContext = {
    doc: isRecord(document) ? document : {},
    file: options.file,
    report,
    issues: [],
    ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
    ...(options.signInScheme === undefined ? {} : { signInScheme: options.signInScheme }),
  };
  const doc = context.doc;
  const title = text(doc.info?.title)?.trim();
  const model = notShownModel(title === '' ? undefined : title);

  // 1. product
  const summary = text(doc.info?.summary)?.trim();
  const description = text(doc.info?.description)?.trim();
  if (title) report.add('product', 'mapped', '/info/title', `title "${title}"`);
  if (summary || description) {
    model.product = { shown: true, audience: [] };
    if (summary) {
      model.product.summary = summary;
      report.add('product', 'mapped', '/info/summary', 'summary');
    }
    if (description) {
      model.product.description = description;
      report.add('product', 'mapped', '/info/description', 'description');
    }
    report.add('product', 'not-shown', '/info', 'audience: OpenAPI does not say for whom the product is');
  } else {
    model.product = { shown: false, reason: 'Not shown: the document’s info has no summary or description.' };
    report.add('product', 'not-shown', '/info', 'info has no summary or description');
  }

  // 3. entities, phase one: which schemas are objects.
  const taken = new Set<string>();
  const drafts =
    guarded(context, ['components', 'schemas'], 'the schemas', () => collectDrafts(context, taken)) ??
    new Map();
  const named = namedSchemaIndex(drafts);
  guarded(context, ['paths'], 'the records described inline', () =>
    collectInlineRecords(context, drafts, named, taken),
  );

  // 7. calls, phase one: read each operation on its own, so one broken operation loses only itself.
  const operations = readOperations(context, drafts, named, (path, method, read) =>
    guarded(context, ['paths', path, method], `${method.toUpperCase()} ${path}`, read),
  );

  const facts: ResourceFacts = { resources: new Set(), itemParam: new Map(), readBelow: new Set() };
  for (const info of operations) {
    if (info.resource === undefined) continue;
    facts.resources.add(info.resource);
    if (isItemRead(info) && info.response.record === info.resource && !facts.itemParam.has(info.resource))
      facts.itemParam.set(info.resource, info.lastParam);
  }
  // Then item reads whose answer wraps or extends the record (`allOf: [Token, {secret}]`): the record
  // is the one its collection lists, so the path's parameter still names its key.
  for (const info of operations)
    if (isItemRead(info) && info.resource !== undefined && !facts.itemParam.has(info.resource))
      facts.itemParam.set(info.resource, info.lastParam);
  // Last, a list whose records are not what the item path below it reads (Jira lists property keys, and
  // reads each property at `/properties/{propertyKey}`): its records' key fills that path's parameter.
  const listedAt = new Map<string, string>();
  for (const info of operations)
    if (info.method === 'get' && !info.isItem && info.response.record !== undefined)
      listedAt.set(info.resourcePath, info.response.record);
  for (const info of operations) {
    if (!isItemRead(info)) continue;
    const listed = listedAt.get(`/${info.pathSegments.slice(0, -1).join('/')}`);
    if (listed === undefined || facts.itemParam.has(listed)) continue;
    facts.itemParam.set(listed, info.lastParam);
    facts.readBelow.add(listed);
  }
  // Entities are built as the calls use them (records, bodies), then as their fields use others.
  const mapper = createEntityMapper(context, drafts, facts, taken, named);
  const callsResult = mapCalls(context, operations, mapper, (info, step) =>
    guarded(context, ['paths', info.path, info.method], `${info.method.toUpperCase()} ${info.path}`, step),
  );
  const finished = guarded(context, ['components', 'schemas'], 'the entities', () => mapper.finish());
  const entityIndex = new Map<string, Entity>();
  for (const entity of finished?.entities ?? []) entityIndex.set(entity.name, entity);
  guarded(context, ['paths'], 'the links', () => applyLinks(context, callsResult.calls, entityIndex));
  const entities = [...entityIndex.values()];
  if (finished !== undefined) reportUnused(context, finished, operations);

  if (entities.length > 0) {
    model.entities = { shown: true, items: entities };
  } else {
    const reason = isRecord(doc.components?.schemas)
      ? 'no schema in components.schemas is an object with properties'
      : 'the document has no components.schemas';
    model.entities = { shown: false, reason: `Not shown: ${reason}.` };
    report.add('entities', 'not-shown', '/components', reason);
  }

  const calls = callsResult.calls;
  if (calls.length > 0) {
    model.calls = { shown: true, items: calls.map((c) => c.call) };
    const server = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
    const url = isRecord(server) ? text(server.url) : undefined;
    if (url !== undefined && url.trim() !== '') {
      const variables = isRecord(server?.variables) ? server.variables : {};
      const filled = url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const variable = variables[name];
        return isRecord(variable) && variable.default !== undefined ? String(variable.default) : whole;
      });
      const baseUrl = withScheme(filled);
      model.calls.baseUrl = baseUrl;
      const why = [
        filled === url ? undefined : 'server variables at their defaults',
        baseUrl === filled
          ? undefined
          : `"${filled}" names a host without a scheme, so ${baseUrl.slice(0, baseUrl.indexOf(':'))} is assumed`,
      ].filter((reason) => reason !== undefined);
      report.add(
        'calls',
        why.length === 0 ? 'mapped' : 'inferred',
        '/servers/0/url',
        `base URL ${baseUrl}${why.length === 0 ? '' : ` (${why.join('; ')})`}`,
      );
    }
  } else {
    const reason =
      isRecord(doc.paths) && Object.keys(doc.paths).length > 0
        ? 'no operation could be mapped'
        : 'the document has no paths';
    model.calls = { shown: false, reason: `Not shown: ${reason}.` };
    report.add('calls', 'not-shown', '/paths', reason);
  }

  // 2. screens
  const screens =
    guarded(context, ['paths'], 'the screens', () => mapScreens(context, calls, entityIndex)) ?? [];
  if (screens.length > 0) model.screens = { shown: true, items: screens };
  else {
    model.screens = {
      shown: false,
      reason: 'Not shown: no path lists or reads records of an entity with its own operations.',
    };
    report.add('screens', 'not-shown', '/paths', 'no collection or item path of a resource entity');
  }

  // 4. states
  const machines =
    guarded(context, ['paths'], 'the states', () =>
      mapStates(context, calls, entityIndex, (name) => mapper.pointerOf(name)),
    ) ?? [];
  if (machines.length > 0) model.states = { shown: true, machines };
  else {
    model.states = {
      shown: false,
      reason: 'Not shown: no enum status field has action operations whose target state is named.',
    };
    report.add(
      'states',
      'not-shown',
      '',
      'no enum status or state field with action operations that name their target state',
    );
  }

  // 5. validation
  const constraints = finished?.constraints ?? [];
  if (constraints.length > 0) model.validation = { shown: true, fields: constraints, rules: [] };
  else {
    model.validation = {
      shown: false,
      reason: 'Not shown: the schemas have no constraints (required, bounds, patterns).',
    };
    report.add('validation', 'not-shown', '/components/schemas', 'no required fields, bounds or patterns');
  }
  report.add('validation', 'not-shown', '', 'uniqueness and cross-field rules: OpenAPI cannot say them');

  // 6. roles
  model.roles = guarded(context, ['components', 'securitySchemes'], 'the security schemes', () =>
    mapRoles(context, calls),
  ) ?? {
    shown: false,
    reason: 'Not shown: the security schemes could not be read.',
  };

  // 8. errors
  const errorEntries =
    guarded(context, ['paths'], 'the error responses', () => mapErrors(context, operations)) ?? [];
  if (errorEntries.length > 0) model.errors = { shown: true, entries: errorEntries };
  else {
    model.errors = { shown: false, reason: 'Not shown: no operation documents a 4xx or 5xx answer.' };
    report.add('errors', 'not-shown', '/paths', 'no 4xx or 5xx responses');
  }

  // 9. constants
  const constants = [...(finished?.constants ?? []), ...callsResult.constants];
  if (constants.length > 0) model.constants = { shown: true, items: constants };
  else {
    model.constants = { shown: false, reason: 'Not shown: no maximum page size or maxItems limit.' };
    report.add('constants', 'not-shown', '', 'no maximum page size or maxItems');
  }

  return { model, report: report.finish(), issues: context.issues };
}

/** A GET on an item path, `/widgets/{widgetKey}`: what names a record's key. */
function isItemRead(info: OperationInfo): info is OperationInfo & { lastParam: string } {
  return info.method === 'get' && info.isItem && info.lastParam !== undefined;
}

/**
 * A server URL that names a host with no scheme (`127.0.0.1:8156`, `//api.example.com/v1`, as servers
 * without a public URL describe themselves) gets one: http for this machine, https elsewhere. A path
 * (`/api/v1`) or a full URL is kept as it is.
 */
function withScheme(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//'))) return url;
  const rest = url.replace(/^\/\//, '');
  if (!/^[\w.-]+(?::\d{1,5})?(?:\/|$)/.test(rest)) return url;
  const local = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::|\/|$)/i.test(rest);
  return `${local ? 'http' : 'https'}://${rest}`;
}
