import { type Call, findEntity, type Model } from '@ninefold/model';
import { ApiError, type ApiRecord, type ListResult, type VersionedRecord } from './data-provider';
import { readTolerantly } from './tolerant-read';

// Reading a call's answer: one record or a page of them, by the call's response shape, and the next
// page's link when a link header gives one. The HTTP data provider sends; this reads.

/** Resolves relative bases and links when no page address is known (tests, workers). */
const PLACEHOLDER_ORIGIN = 'http://base.invalid';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  url: string;
}

/** The records (read as their fields mean them), total and next cursor of a list answer, by the call's response shape. */
export function readList(model: Model, call: Call, answer: Answer): ListResult {
  const response = call.response;
  const body = answer.body;
  let items: unknown;
  let total: unknown;
  let next: unknown;
  const envelope = (object: Record<string, unknown>) => {
    items = object[response?.items ?? 'items'];
    if (response?.total) total = object[response.total];
    if (call.pagination?.style === 'cursor') next = object[call.pagination.nextField];
  };
  switch (response?.shape) {
    case 'none':
      items = [];
      break;
    case 'one':
      items = body === undefined ? [] : [body];
      break;
    case 'envelope':
      // A bare array where an envelope was promised is still the records: tolerate it.
      if (Array.isArray(body)) items = body;
      else if (isRecord(body)) envelope(body);
      break;
    case 'array':
    case undefined:
      if (Array.isArray(body)) items = body;
      else if (isRecord(body)) envelope(body);
      break;
  }
  if (!Array.isArray(items) || !items.every(isRecord)) throw unexpected(answer, 'a list of records');

  const listed = call.response?.entity ?? call.entity;
  const result: ListResult = { items: items.map((item) => readTolerantly(model, listed, item)) };
  const counted = toCount(total) ?? toCount(answer.headers.get('x-total-count'));
  if (counted !== undefined) result.total = counted;
  if (call.pagination?.style === 'cursor') {
    result.next = typeof next === 'string' && next !== '' ? next : null;
    result.hasNext = result.next !== null;
  } else if (call.pagination === undefined || call.pagination.style === 'none') {
    result.hasNext = false;
  }
  return result;
}

/**
 * The record in a one-record answer. Many APIs wrap it in an object of one property (Conduit answers
 * `{"article": {...}}`), a wrapper the model has no place to name for a single record. A body that has
 * none of the entity's fields but holds exactly one object that has some of them is read as that wrapper;
 * other properties beside it (fields the document does not list) do not change that. Any other body is
 * the record itself.
 */
function unwrapRecord(model: Model, call: Call, body: ApiRecord): ApiRecord {
  const entityName = call.response?.entity ?? call.entity;
  const entity = entityName === undefined ? undefined : findEntity(model, entityName);
  if (!entity || entity.fields.length === 0) return body;
  const names = new Set(entity.fields.map((field) => field.name));
  const hasFields = (value: ApiRecord) => Object.keys(value).some((name) => names.has(name));
  if (hasFields(body)) return body;
  const inner = Object.values(body).filter(
    (value): value is ApiRecord => isRecord(value) && hasFields(value),
  );
  return inner.length === 1 && inner[0] !== undefined ? inner[0] : body;
}

function toCount(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/**
 * The next link resolved against the answer's address, kept only when it stays at the API's origin: a
 * link header is not a reason to send the next request elsewhere. Relative bases give relative links.
 */
export function sameOriginLink(
  base: string,
  answerUrl: string,
  link: string | undefined,
): string | undefined {
  if (link === undefined) return undefined;
  const page = typeof location === 'undefined' ? PLACEHOLDER_ORIGIN : location.href;
  try {
    const baseUrl = new URL(base || '/', page);
    const target = new URL(link, new URL(answerUrl, page));
    if (target.origin !== baseUrl.origin || !/^https?:$/.test(target.protocol)) return undefined;
    const relative = !/^[a-z][a-z0-9+.-]*:/i.test(base);
    return relative ? `${target.pathname}${target.search}` : target.href;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is ApiRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unexpected(answer: Answer, expected: string): ApiError {
  return new ApiError(
    answer.status,
    'Unexpected answer',
    `The API answered with something other than ${expected}.`,
    'UNEXPECTED_ANSWER',
    undefined,
    [],
    undefined,
  );
}

/**
 * The one record of an answer, by the call's response shape, read as its entity's fields mean it: a
 * one-property wrapper (`{ "data": {...} }`) is opened, and a read whose document says it answers an
 * array or its list's envelope gives the first record. Its `ETag` is the version.
 */
export function readRecordAnswer(model: Model, call: Call, answer: Answer): VersionedRecord {
  const version = answer.headers.get('etag') ?? undefined;
  const shape = call.response?.shape;
  if (shape === 'none' || answer.body === undefined) {
    return { record: {}, ...(version === undefined ? {} : { version }) };
  }
  // A read of one record that its document says answers an array or its list's envelope (mistakes
  // real documents make): the first record is the one read.
  const listed =
    shape === 'envelope' && isRecord(answer.body)
      ? answer.body[call.response?.items ?? 'items']
      : answer.body;
  const one =
    (shape === 'array' || shape === 'envelope') && Array.isArray(listed) && listed.length > 0
      ? listed[0]
      : answer.body;
  if (!isRecord(one)) throw unexpected(answer, 'a record');
  const record = readTolerantly(model, call.response?.entity ?? call.entity, unwrapRecord(model, call, one));
  return { record, ...(version === undefined ? {} : { version }) };
}
