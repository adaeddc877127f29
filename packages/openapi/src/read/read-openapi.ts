/*
 * How documents are read, chosen by measurement (Node 20.20, 2 cores; GitHub's 13 MB description,
 * median of 3 runs each, bundling only, nothing dereferenced):
 *   JSON.parse                                     ~65 ms
 *   yaml.parse (yaml 2) of the same text         ~2,400 ms
 *   @scalar/json-magic bundle (scalar's parser)    ~850 ms  (~13x), external files go to `x-ext`, async
 *   @readme/openapi-parser bundle                  ~480 ms  (~7x), async, file and URL resolvers need Node
 *   @redocly/openapi-core bundleFromString         ~480 ms  (~7x), async, needs Node I/O and Node >=20.19
 *   swagger2openapi (2.0 only, Netlify's 181 ops)   ~80 ms, requires fs and node-fetch in its core: out
 *   @scalar/openapi-upgrader 2.0 -> 3.0 (same)      ~17 ms, pure, no dependencies besides types
 * None of the bundlers meets the goal of 3x JSON.parse, so this reader is JSON.parse (YAML through `yaml`,
 * which keeps positions and caps alias expansion) plus one walk of its own that makes every reference
 * internal, and scalar's upgrader for Swagger 2.0. See bench/openapi-read.ts for the figures of this reader.
 */
import type { Issue, PathSegment } from '@ninefold/model';
import { upgradeFromTwoToThree } from '@scalar/openapi-upgrader/2.0-to-3.0';
import { bundle } from './bundle';
import { type ParsedText, parseText } from './parse-text';
import type { OpenApi3Document, OpenApiVersion, ReadInput, ReadOptions, ReadResult } from './types';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Reads an OpenAPI 2.0, 3.0 or 3.1 document (JSON or YAML) into one bundled OpenAPI 3.x object: every
 * `$ref` internal, other files pulled into `components` through `readFile`, Swagger 2.0 upgraded to the
 * 3.0 shape. Synchronous and pure (no I/O of its own), so it runs in a browser worker. Never throws on
 * bad input: every problem is an issue with a JSON pointer path and, where it can be found cheaply,
 * `file:line:column`.
 *
 * @example
 * ```ts
 * const result = readOpenApi(
 *   { text: readFileSync('spec/swagger.yaml', 'utf8'), file: 'spec/swagger.yaml' },
 *   { readFile: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined) },
 * );
 * result.version; // '2.0'
 * result.document?.components?.schemas?.Pet; // pulled in from spec/Pet.yaml
 * for (const issue of result.issues) console.log(toPointer(issue.path), issue.message);
 * ```
 */
export function readOpenApi(input: ReadInput, options: ReadOptions = {}): ReadResult {
  try {
    return read(input, options);
  } catch (error) {
    // Reaching here is a bug in Ninefold, not in the document; it still must not become a stack trace.
    return {
      ok: false,
      version: 'unknown',
      issues: [
        {
          code: 'invalid-value',
          severity: 'error',
          message: `The document could not be read (an internal error: ${error instanceof Error ? error.message : String(error)}).`,
          path: [],
          source: { file: input.file, line: 1, column: 1 },
        },
      ],
    };
  }
}

function read(input: ReadInput, options: ReadOptions): ReadResult {
  const parsed = parseText(input.text, input.file);
  const issues = [...parsed.issues];
  if (parsed.data === undefined) return { ok: false, version: 'unknown', issues };
  const problem = (
    path: PathSegment[],
    code: Issue['code'],
    message: string,
    severity: Issue['severity'] = 'error',
  ) => issues.push({ code, severity, message, path, source: located(parsed, path) });

  const data = parsed.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    problem(
      [],
      'invalid-type',
      `This is not an OpenAPI document: it holds ${describe(data)}, not an object.`,
    );
    return { ok: false, version: 'unknown', issues };
  }
  const document = data as Record<string, unknown>;
  const version = detectVersion(document, problem);
  if (version === 'unknown') return { ok: false, version, issues };

  checkShape(document, version, problem);
  issues.push(
    ...bundle(document, { version, root: parsed, readFile: options.readFile, rootFolder: options.root }),
  );

  let result = document;
  if (version === '2.0') {
    try {
      result = upgradeFromTwoToThree(document) as Record<string, unknown>;
    } catch (error) {
      problem(
        [],
        'invalid-value',
        `The Swagger 2.0 document could not be upgraded to OpenAPI 3.0: ${error instanceof Error ? error.message : String(error)}.`,
      );
      return { ok: false, version, issues };
    }
  }
  const ok = !issues.some((issue) => issue.severity === 'error');
  return { ok, document: result as unknown as OpenApi3Document, version, issues };
}

type Problem = (
  path: PathSegment[],
  code: Issue['code'],
  message: string,
  severity?: Issue['severity'],
) => void;

function detectVersion(document: Record<string, unknown>, problem: Problem): OpenApiVersion {
  const { openapi, swagger } = document;
  if (openapi === undefined && swagger === undefined) {
    problem(
      [],
      'missing-key',
      'This is not an OpenAPI document: it has neither an "openapi" nor a "swagger" key.',
    );
    return 'unknown';
  }
  if (openapi !== undefined) {
    if (typeof openapi !== 'string') {
      problem(
        ['openapi'],
        'invalid-type',
        `"openapi" must be a version string such as "3.1.0", not ${describe(openapi)}.`,
      );
      return 'unknown';
    }
    if (/^3\.0(\.|$)/.test(openapi)) return '3.0';
    if (/^3\.1(\.|$)/.test(openapi)) return '3.1';
    if (/^3\.\d+(\.|$)/.test(openapi)) {
      problem(
        ['openapi'],
        'invalid-value',
        `OpenAPI ${openapi} is read as 3.1, the newest version known here.`,
        'warning',
      );
      return '3.1';
    }
    problem(
      ['openapi'],
      'invalid-value',
      `OpenAPI "${openapi}" is not a version that can be read (2.0, 3.0, 3.1).`,
    );
    return 'unknown';
  }
  if (swagger === '2.0' || swagger === 2) return '2.0';
  problem(
    ['swagger'],
    'invalid-value',
    `Swagger ${JSON.stringify(swagger)} is not a version that can be read (2.0).`,
  );
  return 'unknown';
}

/**
 * The structure the mapper walks (paths, operations, their parameters and responses) must have the right
 * types; an item that does not is reported and removed, so that the document matches its type.
 */
function checkShape(document: Record<string, unknown>, version: OpenApiVersion, problem: Problem): void {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  const expectObject = (owner: Record<string, unknown>, key: string, path: PathSegment[]): boolean => {
    const value = owner[key];
    if (value === undefined || isObject(value)) return true;
    problem(path, 'invalid-type', `"${key}" must be an object, not ${describe(value)}; it is left out.`);
    delete owner[key];
    return false;
  };

  if (document.info === undefined) problem([], 'missing-key', 'The document has no "info".', 'warning');
  expectObject(document, 'info', ['info']);
  for (const key of version === '2.0'
    ? ['definitions', 'parameters', 'responses', 'securityDefinitions']
    : ['components']) {
    expectObject(document, key, [key]);
  }
  if (version === '3.1') expectObject(document, 'webhooks', ['webhooks']);
  if (document.paths === undefined && version !== '3.1') {
    problem([], 'missing-key', 'The document has no "paths".', 'warning');
  }
  if (!expectObject(document, 'paths', ['paths']) || !isObject(document.paths)) return;
  const paths = document.paths;
  for (const [route, item] of Object.entries(paths)) {
    if (route.startsWith('x-')) continue;
    if (!expectObject(paths, route, ['paths', route]) || !isObject(item)) continue;
    if (Array.isArray(item.parameters) === false && item.parameters !== undefined) {
      problem(
        ['paths', route, 'parameters'],
        'invalid-type',
        `"parameters" must be a list, not ${describe(item.parameters)}; it is left out.`,
      );
      delete item.parameters;
    }
    for (const method of METHODS) {
      if (!expectObject(item, method, ['paths', route, method])) continue;
      const operation = item[method];
      if (!isObject(operation)) continue;
      if (operation.parameters !== undefined && !Array.isArray(operation.parameters)) {
        problem(
          ['paths', route, method, 'parameters'],
          'invalid-type',
          `"parameters" must be a list, not ${describe(operation.parameters)}; it is left out.`,
        );
        delete operation.parameters;
      }
      expectObject(operation, 'responses', ['paths', route, method, 'responses']);
      expectObject(operation, 'requestBody', ['paths', route, method, 'requestBody']);
    }
  }
}

function located(parsed: ParsedText, path: readonly PathSegment[]) {
  return parsed.locate(path) ?? { file: parsed.file, line: 1, column: 1 };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string')
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'object' ? 'an object' : `the ${typeof value} ${String(value)}`}`;
}
