// The specification as an OpenAPI 3.1 contract of the prototype API (docs/contract.md): the standard
// parts say what OpenAPI can (paths, schemas, security, problems), and `x-ninefold-*` the rest.
import { toDocument } from '../../document/write';
import type { FieldType, JsonValue, Model, Role, SignIn } from '../../model';
import { permissionsApply } from '../../rules/grants';
import { type ApiDescription, transitionsByCall } from '../api';
import { operationOf, securityNames } from './operations';
import { problemSchemas } from './problems';
import { componentName, entityComponents, type JsonObject } from './schemas';
import { SESSION_SCHEMA, servicePaths } from './services';

/** The version of the `x-ninefold-*` extensions this writer speaks; an import reads this one. */
export const CONTRACT_VERSION = 1;

/** The points whose whole document form travels in an extension of the document's root. */
export const ROOT_EXTENSIONS = {
  product: 'x-ninefold-product',
  screens: 'x-ninefold-screens',
  states: 'x-ninefold-states',
  validation: 'x-ninefold-validation',
  roles: 'x-ninefold-roles',
  errors: 'x-ninefold-errors',
  constants: 'x-ninefold-constants',
} as const;

export interface OpenApiOptions {
  /** A record of each entity to show as its schema's example, as the seed makes them. */
  examples?: ReadonlyMap<string, Record<string, JsonValue>>;
}

/**
 * The OpenAPI 3.1 document of the API a specification describes, as the prototype API serves it:
 * every call with its parameters, bodies, answers and refusals; the API's own services; the schema of
 * every entity; the sign-in; and, in `x-ninefold-*`, what OpenAPI cannot say (states, rules, grants,
 * the error catalogue, constants, screens), each in the specification's own document form.
 *
 * @example
 * ```ts
 * const document = openApiDocument(model, prototypeApi(model));
 * document.paths['/orders'].get.operationId; // 'listOrder'
 * ```
 */
export function openApiDocument(model: Model, api: ApiDescription, options: OpenApiOptions = {}): JsonObject {
  const doc = toDocument(model);
  const transitions = transitionsByCall(model, api.calls, api.conventional);
  const callDocs =
    typeof doc.calls === 'object' ? (doc.calls.operations as Record<string, unknown> | undefined) : undefined;
  const paths: Record<string, JsonObject> = {};
  const skipped: string[] = [];
  for (const call of api.calls) {
    const item = paths[call.path] ?? {};
    paths[call.path] = item;
    const method = call.method.toLowerCase();
    // Two calls at one method and path cannot both be served; the API serves the first.
    if (item[method]) {
      skipped.push(call.name);
      continue;
    }
    item[method] = operationOf(model, call, transitions.get(call.name), callDocs?.[call.name]);
  }
  for (const [path, item] of Object.entries(servicePaths(model, api, holdsFiles(model)))) {
    paths[path] = { ...paths[path], ...item };
  }
  const created = new Set(api.calls.filter((c) => c.purpose === 'create').map((c) => c.entity));
  const schemas = entityComponents(model, doc, (entity) => created.has(entity));
  for (const [entity, record] of options.examples ?? []) {
    const schema = schemas[componentName(entity)];
    if (schema) schema.examples = [record];
  }
  const security = securityScheme(model);
  const product = model.product.shown ? model.product : undefined;
  const extensions: JsonObject = {};
  for (const [point, key] of Object.entries(ROOT_EXTENSIONS)) {
    extensions[key] = doc[point as keyof typeof ROOT_EXTENSIONS];
  }
  return {
    openapi: '3.1.0',
    info: {
      title: model.title ?? 'A Ninefold API',
      version: '1',
      ...(product?.summary ? { summary: product.summary } : {}),
      description: [product?.description, rolesInWords(model)].filter(Boolean).join('\n\n') || 'Not shown.',
    },
    servers: [{ url: api.base, description: 'The prototype API (`ninefold serve`).' }],
    paths,
    components: {
      schemas: {
        ...schemas,
        ...problemSchemas(),
        ...(api.auth || api.calls.some((c) => c.purpose === 'sign-in') ? { Session: SESSION_SCHEMA } : {}),
      },
      ...(security ? { securitySchemes: { [securityNames(model)[0] ?? 'ninefold']: security } } : {}),
    },
    // Without permissions every call is open, which OpenAPI says with an empty list.
    security: security ? securityNames(model).map((name) => ({ [name]: [] })) : [],
    'x-ninefold': {
      version: CONTRACT_VERSION,
      conventional: api.conventional,
      ...(model.calls.shown && model.calls.baseUrl !== undefined ? { baseUrl: model.calls.baseUrl } : {}),
      // Point 7 not shown: the paths are the conventional calls, and this is what the author said.
      ...(typeof doc.calls === 'string' ? { calls: doc.calls } : {}),
      ...(skipped.length ? { unserved: skipped } : {}),
    },
    ...extensions,
    ...(doc.notes ? { 'x-ninefold-notes': doc.notes } : {}),
  };
}

/** How a request carries its credentials, as point 6's sign-in says and the prototype API reads them. */
function securityScheme(model: Model): JsonObject | undefined {
  if (!model.roles.shown || !permissionsApply(model)) return undefined;
  const description = rolesInWords(model);
  const scheme = (signIn: SignIn): JsonObject | undefined => {
    switch (signIn.kind) {
      case 'none':
        return undefined;
      case 'password':
        return { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
      case 'token':
        return { type: 'http', scheme: 'bearer' };
      case 'basic':
        return { type: 'http', scheme: 'basic' };
      case 'api-key':
        return { type: 'apiKey', in: signIn.in, name: signIn.name };
      case 'oidc':
        return {
          type: 'openIdConnect',
          openIdConnectUrl: `${signIn.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
        };
      case 'oauth2':
        return {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: signIn.authorizationUrl,
              tokenUrl: signIn.tokenUrl,
              scopes: Object.fromEntries(signIn.scopes.map((scope) => [scope, scope])),
            },
          },
        };
    }
  };
  const found = scheme(model.roles.signIn);
  return found ? { ...found, description } : undefined;
}

/** Point 6 in words, for people reading the document: each role, and what it may do. */
function rolesInWords(model: Model): string | undefined {
  if (!model.roles.shown || model.roles.roles.length === 0) return undefined;
  const role = (r: Role) => {
    const grants = model.roles.shown ? model.roles.grants.filter((g) => g.role === r.name) : [];
    const may = grants.map(
      (g) =>
        `${g.actions.join(', ')} ${g.entity}${g.where ? ` where \`${g.where}\`` : ''}${
          g.hidden.length ? ` (not seeing ${g.hidden.join(', ')})` : ''
        }`,
    );
    return `- **${r.label ?? r.name}** (\`${r.name}\`)${r.signedOut ? ', without signing in' : ''}: ${
      may.length ? may.join('; ') : 'nothing'
    }.${r.description ? ` ${r.description}` : ''}`;
  };
  return `Roles (point 6; \`x-ninefold-roles\` holds the grants exactly):\n\n${model.roles.roles.map(role).join('\n')}`;
}

function holdsFiles(model: Model): boolean {
  if (!model.entities.shown) return false;
  const holds = (type: FieldType): boolean =>
    type.kind === 'file' || (type.kind === 'list' && holds(type.of));
  return model.entities.items.some((entity) => entity.fields.some(holds));
}
