import { ApiError, type ApiErrorExtras, type ApiFieldError, type ApiRecord } from './data-provider';
import type { ErrorShape } from './error-shapes';

/** The longest text kept from an answer: enough for any honest message, too little to flood a page. */
export const MAX_TEXT = 300;
/** The most field errors kept from one answer. */
const MAX_FIELD_ERRORS = 100;

/**
 * An `ApiError` from a non-success answer. An RFC 9457 problem (by content type, or an object with a
 * problem's members) gives its title, detail, code, type, reference and `errors[]` as field errors with
 * JSON pointers; any other body (an HTML page from a proxy, text, nothing) gives a generic error with the
 * status. Every kept string is clipped to `MAX_TEXT` and stays a plain string: nothing is parsed as HTML.
 * With the answer's headers, a 412 also keeps the record as it is now (the problem's `current` member, and
 * its `ETag`), and any answer its `Retry-After`.
 *
 * @example
 * ```ts
 * const error = apiErrorFrom(422, 'Unprocessable Entity', 'application/problem+json', body);
 * error.fieldErrors; // [{ pointer: '/email', message: 'Enter an email address…', code: 'pattern' }]
 * ```
 */
export function apiErrorFrom(
  status: number,
  statusText: string,
  contentType: string | null,
  body: unknown,
  headers?: Headers,
  now: () => number = Date.now,
  /** Reads the other common shapes (`readErrorShape`); `readApiError` loads it when a body needs it. */
  readShape?: (body: Record<string, unknown>) => ErrorShape | undefined,
): ApiError {
  const fallbackTitle = clipText(statusText) || `HTTP ${status}`;
  const extras: ApiErrorExtras = {};
  const retryAfter = retryAfterSeconds(headers?.get('retry-after') ?? null, now());
  if (retryAfter !== undefined) extras.retryAfterSeconds = retryAfter;
  if (!isObject(body)) {
    return new ApiError(status, fallbackTitle, undefined, undefined, undefined, [], undefined, extras);
  }
  if (!isProblem(contentType, body)) {
    // Most servers answer no RFC 9457 problem but say as much in their own shape: read it the same way.
    const shape = readShape?.(body);
    return new ApiError(
      status,
      fallbackTitle,
      shape?.detail === undefined ? undefined : clipText(shape.detail),
      shape?.code === undefined ? undefined : clipText(shape.code),
      undefined,
      (shape?.fieldErrors ?? []).map((item) => ({
        pointer: clipText(item.pointer),
        message: clipText(item.message),
        ...(item.code === undefined ? {} : { code: clipText(item.code) }),
      })),
      undefined,
      extras,
    );
  }
  if (status === 412 && isObject(body.current)) {
    extras.current = body.current as ApiRecord;
    const etag = headers?.get('etag');
    if (etag) extras.currentVersion = etag;
  }
  return new ApiError(
    status,
    text(body.title) ?? fallbackTitle,
    text(body.detail),
    text(body.code),
    text(body.type),
    fieldErrors(body.errors),
    text(body.reference),
    extras,
  );
}

/**
 * `apiErrorFrom` with every shape read: the reader of the shapes besides RFC 9457 (`error-shapes.ts`)
 * is loaded only when an answer is in one of them, so a page that never meets one never loads it.
 *
 * @example
 * ```ts
 * const error = await readApiError(400, 'Bad Request', 'application/json', { message: 'body/price must be number' });
 * error.fieldErrors; // [{ pointer: '/price', message: 'must be number' }]
 * ```
 */
export async function readApiError(
  status: number,
  statusText: string,
  contentType: string | null,
  body: unknown,
  headers?: Headers,
  now: () => number = Date.now,
): Promise<ApiError> {
  const shaped = isObject(body) && !isProblem(contentType, body);
  const readShape = shaped ? (await import('./error-shapes')).readErrorShape : undefined;
  return apiErrorFrom(status, statusText, contentType, body, headers, now, readShape);
}

/**
 * A `Retry-After` header in seconds from now: a number of seconds, or an HTTP date. Undefined when it is
 * absent or unreadable; a date already past is 0.
 *
 * @example
 * retryAfterSeconds('120', Date.now()) // 120
 */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (!/[a-z]/i.test(trimmed) || Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Clips a text to `MAX_TEXT` characters (not cutting a surrogate pair in half). */
export function clipText(value: string): string {
  const chars = Array.from(value);
  return chars.length > MAX_TEXT ? `${chars.slice(0, MAX_TEXT).join('')}…` : value;
}

/** An RFC 9457 problem: by its content type, or by its own members. */
function isProblem(contentType: string | null, body: Record<string, unknown>): boolean {
  return (contentType ?? '').toLowerCase().includes('problem+json') || looksLikeProblem(body);
}

/** A problem's own members, and no `message` or `error` of another shape beside them. */
function looksLikeProblem(body: Record<string, unknown>): boolean {
  if (typeof body.message === 'string' || body.error !== undefined) return false;
  return ['title', 'detail', 'type', 'code'].some((member) => typeof body[member] === 'string');
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value !== '' ? clipText(value) : undefined;
}

function fieldErrors(value: unknown): ApiFieldError[] {
  if (!Array.isArray(value)) return [];
  const out: ApiFieldError[] = [];
  for (const item of value.slice(0, MAX_FIELD_ERRORS)) {
    if (!isObject(item)) continue;
    const pointer = toPointer(item);
    if (pointer === undefined) continue;
    const message = text(item.detail) ?? text(item.message) ?? text(item.title) ?? '';
    const code = text(item.code);
    out.push({ pointer, message, ...(code === undefined ? {} : { code }) });
  }
  return out;
}

/** `/lines/0/quantity`; a `#/…` fragment or a bare field name, as some APIs send, is read as one too. */
function toPointer(item: Record<string, unknown>): string | undefined {
  const raw = typeof item.pointer === 'string' ? item.pointer : undefined;
  if (raw !== undefined) {
    const pointer = raw.startsWith('#') ? raw.slice(1) : raw;
    return pointer === '' || pointer.startsWith('/') ? clipText(pointer) : undefined;
  }
  const field = typeof item.field === 'string' ? item.field : undefined;
  if (field === undefined || field === '') return undefined;
  return clipText(`/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
