// Error answers in the shapes real servers send besides RFC 9457: the client shows them, and `ninefold
// verify` reads where a refusal points with the same rule.

/** One field an error answer names: where (a JSON Pointer into the body), what it says, and its code. */
export interface ShapedFieldError {
  pointer: string;
  message: string;
  code?: string;
}

/** What an error answer in one of the common non-RFC 9457 shapes says, read as a problem's members. */
export interface ErrorShape {
  /** The answer's main message, for people. */
  detail?: string;
  code?: string;
  fieldErrors: ShapedFieldError[];
}

/** The most messages kept from one answer. */
const MAX_ITEMS = 100;

/**
 * The message, code and field errors of an error answer in the shapes real servers send besides RFC
 * 9457 (docs/client.md, "Errors from any server"):
 * - `{ message, code?, error? }` (Fastify, Express, NestJS, Platformatic), with Fastify's validation
 *   message `body/price must be number` read as the field `price`;
 * - `{ error: "…" }` and `{ error: { message, code } }`;
 * - `{ errors: [{ message, field | path | extensions.field, code | extensions.code }] }` (Directus,
 *   GraphQL servers);
 * - JSON:API's `{ errors: [{ detail, title, code, source: { pointer: "/data/attributes/name" } }] }`;
 * - `{ errors: { name: ["…"] } }` (Rails, Laravel) and `{ detail: [{ loc: ["body", "name"], msg }] }`
 *   (FastAPI);
 * - `{ detail: "…" }` (Django REST framework).
 * Undefined when the body has none of these. Strings are returned as they are: the caller clips them.
 *
 * @example
 * ```ts
 * readErrorShape({ errors: [{ message: 'Too many', extensions: { code: 'FAILED_VALIDATION', field: 'seats' } }] });
 * // { detail: 'Too many', code: 'FAILED_VALIDATION', fieldErrors: [{ pointer: '/seats', message: 'Too many', code: 'FAILED_VALIDATION' }] }
 * ```
 */
export function readErrorShape(body: Record<string, unknown>): ErrorShape | undefined {
  const fieldErrors: ErrorShape['fieldErrors'] = [];
  let detail = text(body.message) ?? text(body.error_description);
  let code = text(body.code) ?? text(body.error_code);

  const error = body.error;
  if (isObject(error)) {
    detail ??= text(error.message) ?? text(error.detail);
    code ??= text(error.code) ?? text(error.type);
    if (Array.isArray(error.errors)) fieldErrors.push(...listErrors(error.errors));
    if (isObject(error.details)) fieldErrors.push(...keyedErrors(error.details));
  } else if (typeof error === 'string' && error !== '') {
    // `{ statusCode, error: "Bad Request", message }`: the message says more than the status's name.
    detail ??= error;
  }

  if (Array.isArray(body.errors)) fieldErrors.push(...listErrors(body.errors));
  else if (isObject(body.errors)) fieldErrors.push(...keyedErrors(body.errors));
  if (Array.isArray(body.detail)) fieldErrors.push(...listErrors(body.detail));
  else detail ??= text(body.detail);

  const first = Array.isArray(body.errors) ? body.errors.find(isObject) : undefined;
  if (first) {
    detail ??= text(first.message) ?? text(first.detail) ?? text(first.title);
    code ??= text(first.code) ?? (isObject(first.extensions) ? text(first.extensions.code) : undefined);
  }
  if (detail !== undefined) {
    const named = fastifyField(detail);
    if (named && !fieldErrors.some((item) => item.pointer === named.pointer))
      fieldErrors.push({ ...named, ...(code === undefined ? {} : { code }) });
  }
  if (detail === undefined && code === undefined && fieldErrors.length === 0) return undefined;
  return {
    ...(detail === undefined ? {} : { detail }),
    ...(code === undefined ? {} : { code }),
    fieldErrors: fieldErrors.slice(0, MAX_ITEMS),
  };
}

/** Items of an `errors` array, each kept when it names its field. */
function listErrors(items: unknown[]): ErrorShape['fieldErrors'] {
  const out: ErrorShape['fieldErrors'] = [];
  for (const item of items.slice(0, MAX_ITEMS)) {
    if (!isObject(item)) continue;
    const extensions = isObject(item.extensions) ? item.extensions : {};
    const source = isObject(item.source) ? item.source : {};
    const message =
      text(item.message) ??
      text(item.detail) ??
      text(item.msg) ??
      text(item.title) ??
      text(extensions.message);
    const code = text(item.code) ?? text(extensions.code) ?? text(item.type);
    const pointer =
      pointerOf(item.pointer) ??
      pointerOf(source.pointer) ??
      named(item.field) ??
      named(extensions.field) ??
      pathPointer(item.path) ??
      pathPointer(item.loc) ??
      (message === undefined ? undefined : fastifyField(message)?.pointer);
    if (pointer === undefined || message === undefined) continue;
    out.push({ pointer, message, ...(code === undefined ? {} : { code }) });
  }
  return out;
}

/** `{ name: ["can't be blank"], email: "is taken" }`. */
function keyedErrors(errors: Record<string, unknown>): ErrorShape['fieldErrors'] {
  const out: ErrorShape['fieldErrors'] = [];
  for (const [field, value] of Object.entries(errors).slice(0, MAX_ITEMS)) {
    const message = Array.isArray(value) ? value.map(text).find((m) => m !== undefined) : text(value);
    const pointer = named(field);
    if (pointer !== undefined && message !== undefined) out.push({ pointer, message });
  }
  return out;
}

/**
 * JSON:API's `/data/attributes/name` is the field `name`; a relationship's `/data/relationships/owner`
 * is `owner`. Any other pointer is taken as it is.
 */
function pointerOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/')) return undefined;
  const jsonApi = /^\/data\/(?:attributes|relationships)(\/.*)$/.exec(value);
  return jsonApi?.[1] ?? (value === '/data' ? undefined : value);
}

/** A bare field name, or a dotted one (`lines.0.quantity`), as a pointer. */
function named(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '' || value.length > 200) return undefined;
  return `/${value.split('.').map(escapePointer).join('/')}`;
}

/** `["body", "lines", 0, "quantity"]` or `"lines[0].quantity"` as a pointer; `body` and `query` lead nowhere. */
function pathPointer(value: unknown): string | undefined {
  const parts = Array.isArray(value)
    ? value.filter((part) => typeof part === 'string' || typeof part === 'number').map(String)
    : typeof value === 'string' && value !== ''
      ? value.split(/[.[\]]+/).filter(Boolean)
      : [];
  const rest = parts[0] === 'body' ? parts.slice(1) : parts;
  if (rest.length === 0 || parts[0] === 'query' || parts[0] === 'path') return undefined;
  return `/${rest.map(escapePointer).join('/')}`;
}

/**
 * Fastify's (ajv's) validation messages name the field first: `body/price must be number`, and a
 * missing one `body must have required property 'name'`.
 */
function fastifyField(message: string): { pointer: string; message: string } | undefined {
  const at = /^body\/([\w/]+) (.+)$/.exec(message);
  if (at?.[1] && at[2]) return { pointer: `/${at[1]}`, message: at[2] };
  const required = /^body must have required property '([\w]+)'$/.exec(message);
  if (required?.[1]) return { pointer: `/${required[1]}`, message: message.slice('body '.length) };
  return undefined;
}

function escapePointer(part: string): string {
  return part.replaceAll('~', '~0').replaceAll('/', '~1');
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
