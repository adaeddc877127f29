import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { readOpenApi } from '../../../packages/openapi/src/index';
import { CORPUS, corpusDocuments, corpusReadOptions } from '../../../packages/openapi/test/support/corpus';
import { isObject, type Json, resolveRef } from './json';

/**
 * The shapes of real APIs that broke imported clients before: each must be in the UI corpus at least once.
 * Found in the document itself, never by hand.
 */
export const AWKWARD_KINDS = [
  'non-id-key',
  'wrapped-list',
  'required-header',
  'multipart',
  'oauth2-no-client-id',
  'inline-only',
  // A server URL that is a path (`/api/v1`) or a template: `--api URL` must still be the API's base.
  'relative-server',
  'templated-server',
] as const;
export type AwkwardKind = (typeof AWKWARD_KINDS)[number];

/** How many documents the hash order gives before the awkward kinds are made sure of. */
export const FIRST_BY_HASH = 12;

/** The corpus folders the UI corpus draws from (the list; GitHub's 13 MB has a benchmark of its own). */
const POOL = /^(apis-guru|netlify|realworld|oai-examples)\//;

/** The OAI examples come in JSON and YAML with the same content: the YAML copy is the same API twice. */
function isCopy(name: string): boolean {
  return name.startsWith('oai-examples/') && /\.ya?ml$/.test(name);
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function schemaOf(response: unknown): Json | undefined {
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const json = Object.entries(response.content).find(([type]) => /json/.test(type))?.[1];
  return isObject(json) && isObject(json.schema) ? json.schema : undefined;
}

/** The awkward kinds a bundled OpenAPI 3.x document has. */
export function awkwardKindsOf(document: Json): AwkwardKind[] {
  const kinds = new Set<AwkwardKind>();
  const paths = isObject(document.paths) ? document.paths : {};
  let listsSomething = false;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const last = path.split('/').filter(Boolean).at(-1) ?? '';
    const itemParameter = /^\{(.+)\}$/.exec(last)?.[1];
    if (itemParameter !== undefined && itemParameter !== 'id' && isObject(item.get)) {
      const collection = path.slice(0, path.lastIndexOf('/'));
      if (isObject(paths[collection]) && isObject((paths[collection] as Json).get)) kinds.add('non-id-key');
    }
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const parameters = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ].map((parameter) => resolveRef(document, parameter));
      if (parameters.some((p) => isObject(p) && p.in === 'header' && p.required === true))
        kinds.add('required-header');
      const body = resolveRef(document, operation.requestBody);
      if (isObject(body) && isObject(body.content) && 'multipart/form-data' in body.content)
        kinds.add('multipart');
      if (method === 'get' && itemParameter === undefined) {
        const ok = isObject(operation.responses)
          ? resolveRef(document, operation.responses['200'])
          : undefined;
        const schema = resolveRef(document, schemaOf(ok));
        if (isObject(schema)) listsSomething = true;
        if (
          isObject(schema) &&
          isObject(schema.properties) &&
          Object.values(schema.properties).some(
            (p) => isObject(resolveRef(document, p)) && (resolveRef(document, p) as Json).type === 'array',
          )
        )
          kinds.add('wrapped-list');
      }
    }
  }
  const schemes = isObject(document.components) ? document.components.securitySchemes : undefined;
  if (isObject(schemes))
    for (const scheme of Object.values(schemes))
      if (isObject(scheme) && (scheme.type === 'oauth2' || scheme.type === 'openIdConnect'))
        kinds.add('oauth2-no-client-id');
  // Records described only inline, in the answers of its lists: no named schema at all.
  const named = isObject(document.components) ? document.components.schemas : undefined;
  if ((!isObject(named) || Object.keys(named).length === 0) && listsSomething) kinds.add('inline-only');
  const server = Array.isArray(document.servers) ? document.servers[0] : undefined;
  const url = isObject(server) && typeof server.url === 'string' ? server.url : undefined;
  if (url?.startsWith('/') && url !== '/') kinds.add('relative-server');
  if (url?.includes('{')) kinds.add('templated-server');
  return AWKWARD_KINDS.filter((kind) => kinds.has(kind));
}

export interface Candidate {
  /** `apis-guru/openai.com.json`: the path inside the corpus. */
  name: string;
  hash: string;
  kinds: AwkwardKind[];
}

/** Every document the UI corpus may draw from, in hash order (sha256 of the name). */
export function candidates(): Candidate[] {
  if (CORPUS === undefined) return [];
  const found: Candidate[] = [];
  for (const path of corpusDocuments()) {
    const name = relative(CORPUS, path);
    if (!POOL.test(name) || isCopy(name)) continue;
    const read = readOpenApi({ text: readFileSync(path, 'utf8'), file: path }, corpusReadOptions());
    if (read.document === undefined) continue;
    const document = read.document as unknown as Json;
    if (!isObject(document.paths) || Object.keys(document.paths).length === 0) continue;
    found.push({
      name,
      hash: createHash('sha256').update(name).digest('hex'),
      kinds: awkwardKindsOf(document),
    });
  }
  return found.sort((a, b) => a.hash.localeCompare(b.hash));
}

/**
 * The UI corpus: the first documents in hash order, then, for each awkward kind they lack, the first
 * document in hash order that has it. Nobody picks a document, so nobody picks the easy ones.
 */
export function chooseUiCorpus(pool: Candidate[] = candidates()): Candidate[] {
  const chosen = pool.slice(0, FIRST_BY_HASH);
  for (const kind of AWKWARD_KINDS) {
    if (chosen.some((candidate) => candidate.kinds.includes(kind))) continue;
    const first = pool.find((candidate) => candidate.kinds.includes(kind));
    if (first !== undefined) chosen.push(first);
  }
  return chosen;
}
