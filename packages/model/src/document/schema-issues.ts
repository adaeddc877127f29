import type * as z from 'zod';
import { didYouMean } from '../authoring/suggest';
import type { Issue, PathSegment } from '../issues';
import { documentJsonSchema } from './schema';

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  $defs?: Record<string, JsonSchema>;
};

let rootSchema: JsonSchema | undefined;
const root = (): JsonSchema => {
  rootSchema ??= documentJsonSchema() as JsonSchema;
  return rootSchema;
};

/**
 * Turns Zod's issues about the authoring document into ours: one issue per problem, with the path of
 * the offending key or value, a message in the document's own terms, and did-you-mean hints drawn from
 * the published JSON Schema (so the hints can never disagree with what editors autocomplete).
 */
export function schemaIssues(zodIssues: readonly z.core.$ZodIssue[], data: unknown): Issue[] {
  const out: Issue[] = [];
  for (const issue of zodIssues) convert(issue, [], data, out);
  return dedupe(out);
}

function convert(issue: z.core.$ZodIssue, prefix: PathSegment[], data: unknown, out: Issue[]): void {
  const path = [...prefix, ...(issue.path as PathSegment[])];
  const where = describe(path);
  const value = valueAt(data, path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = allowedKeys(path);
      for (const key of issue.keys) {
        out.push({
          code: 'unknown-key',
          severity: 'error',
          message: `${where ? `${where}: ` : ''}"${key}" is not a known key here.`,
          path: [...path, key],
          ...hint(
            commaSplit(value, key) ??
              didYouMean(key, allowed) ??
              (allowed.length ? `known keys: ${allowed.join(', ')}` : undefined),
          ),
        });
      }
      return;
    }
    case 'invalid_union': {
      const discriminated = issue as { discriminator?: string; options?: unknown[] };
      if (discriminated.discriminator !== undefined) {
        // Zod's path already ends at the discriminator key, and it lists the values it would accept.
        const allowed = (discriminated.options ?? []).map(String);
        const name = discriminated.discriminator;
        const owner = describe(path.slice(0, -1));
        out.push({
          code: value === undefined ? 'missing-key' : 'invalid-value',
          severity: 'error',
          message:
            value === undefined
              ? `${owner || 'The document'} needs a "${name}".`
              : `${owner}: ${describeValue(value)} is not a known ${name}.`,
          path,
          ...hint(
            (typeof value === 'string' ? didYouMean(value, allowed) : undefined) ??
              (allowed.length ? `one of: ${allowed.join(', ')}` : undefined),
          ),
        });
        return;
      }
      const branch = bestBranch(issue.errors as z.core.$ZodIssue[][], value);
      if (branch) {
        for (const inner of branch) convert(inner, path, data, out);
        return;
      }
      out.push({
        code: 'invalid-type',
        severity: 'error',
        message: `${where || 'The document'}: expected ${expectation(path) ?? 'something else'}, found ${describeValue(value)}.`,
        path,
      });
      return;
    }
    case 'invalid_type': {
      const missing = value === undefined;
      out.push({
        code: missing ? 'missing-key' : 'invalid-type',
        severity: 'error',
        message: missing
          ? `${where} is required.`
          : `${where}: expected ${typeName(issue.expected)}, found ${describeValue(value)}.`,
        path,
      });
      return;
    }
    case 'invalid_key': {
      const name = String(path.at(-1));
      const reason = issue.issues[0]?.message ?? 'it is not a valid name';
      out.push({
        code: 'invalid-name',
        severity: 'error',
        message: `${describe(path.slice(0, -1))}: "${name}" is not a valid name here: ${reason}.`,
        path,
      });
      return;
    }
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      out.push({
        code: 'invalid-value',
        severity: 'error',
        message: `${where}: ${describeValue(value)} is not one of ${allowed.join(', ')}.`,
        path,
        ...hint(typeof value === 'string' ? didYouMean(value, allowed) : undefined),
      });
      return;
    }
    default:
      out.push({
        code: 'invalid-value',
        severity: 'error',
        message: `${where || 'The document'}: ${issue.message}.`,
        path,
      });
  }
}

/**
 * Of a union's failed branches, the one the author most likely meant: an object is not trying to be
 * the "not shown" string, so prefer the branch whose problems lie deepest inside the value.
 */
function bestBranch(branches: z.core.$ZodIssue[][], value: unknown): z.core.$ZodIssue[] | undefined {
  const scored = branches
    .filter((branch) => branch.length > 0)
    .filter(
      (branch) => !(branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0),
    )
    .map((branch) => ({ branch, depth: Math.max(...branch.map((issue) => issue.path.length)) }));
  if (scored.length === 0) return undefined;
  // A string value that fails the "not shown" pattern and every content branch: say so plainly.
  if (
    typeof value === 'string' &&
    scored.every(({ branch }) => branch.every((i) => i.code === 'invalid_format'))
  ) {
    return undefined;
  }
  scored.sort((a, b) => b.depth - a.depth || a.branch.length - b.branch.length);
  return scored[0]?.branch;
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.code}|${JSON.stringify(issue.path)}|${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function hint(text: string | undefined): { hint?: string } {
  return text === undefined ? {} : { hint: text };
}

/** `screens.orders.columns[2]`, as an author would point at it. */
export function describe(path: readonly PathSegment[]): string {
  return path
    .map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join('');
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map of keys';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return `${typeof value} ${String(value)}`;
}

function typeName(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'boolean':
      return 'true or false';
    case 'integer':
      return 'a whole number';
    case 'object':
      return 'a map of keys';
    case 'array':
      return 'a list';
    default:
      return `a ${expected}`;
  }
}

/** What the schema accepts at `path`, in words: `a number, text or a map of keys`. */
function expectation(path: readonly PathSegment[]): string | undefined {
  const schema = schemaAt(path);
  if (!schema) return undefined;
  const kinds = alternatives(schema).map((option) => {
    if (option.type === 'string' && path.length === 1) return 'the words "not shown"';
    if (option.const !== undefined) return JSON.stringify(option.const);
    return typeName(String(option.type ?? 'value'));
  });
  const unique = [...new Set(kinds)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}

function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment as string];
  }
  return value;
}

function resolve(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace(/^#\/\$defs\//, '');
  return schema.$ref === '#' ? root() : resolve(root().$defs?.[name]);
}

function alternatives(schema: JsonSchema): JsonSchema[] {
  const resolved = resolve(schema);
  if (!resolved) return [];
  const options = resolved.anyOf ?? resolved.oneOf;
  return options ? options.flatMap(alternatives) : [resolved];
}

/** The subschemas that may describe the value at `path` (several where a union leaves it open). */
function schemasAt(path: readonly PathSegment[]): JsonSchema[] {
  let current: JsonSchema[] = [root()];
  for (const segment of path) {
    current = current.flatMap(alternatives).flatMap((schema): JsonSchema[] => {
      if (typeof segment === 'number') return schema.items ? [schema.items] : [];
      const property = schema.properties?.[segment];
      if (property) return [property];
      return typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : [];
    });
  }
  return current;
}

function schemaAt(path: readonly PathSegment[]): JsonSchema | undefined {
  const all = schemasAt(path);
  return all.length === 1 ? all[0] : all.length ? { anyOf: all } : undefined;
}

function allowedKeys(path: readonly PathSegment[]): string[] {
  const keys = schemasAt(path)
    .flatMap(alternatives)
    .flatMap((schema) => Object.keys(schema.properties ?? {}));
  return [...new Set(keys)];
}

/**
 * In YAML's `{ values: a, b }` the comma ends the value, and `b` becomes a key with no value: the likely
 * reading of a bare unknown key after a plain value. Undefined when it does not look like that.
 */
function commaSplit(owner: unknown, key: string): string | undefined {
  if (owner === null || typeof owner !== 'object' || Array.isArray(owner)) return undefined;
  const entries = Object.entries(owner as Record<string, unknown>);
  const at = entries.findIndex(([name]) => name === key);
  const before = entries[at - 1];
  if (at < 1 || entries[at]?.[1] !== null || before === undefined || typeof before[1] !== 'string')
    return undefined;
  return `a comma inside { } ends a value, so "${key}" was read as a key: quote the value that holds the comma (${before[0]}: "${before[1]}, ${key}"), or write a list as [${before[1]}, ${key}]`;
}
