import { fromPointer } from '../issues';
import { findEntity } from '../lookup';
import type { ErrorEntry, ErrorMatch, FieldType, Model } from '../model';

/** One field problem of a failed call: where in the record (a JSON Pointer) and, if the API said, why. */
export interface ErrorAnswerField {
  pointer: string;
  code?: string;
}

/**
 * A failed call as the error catalogue (point 8) sees it. `status` is absent when the call got no answer
 * at all (offline, refused, timed out): no entry describes that, since every part of an entry is a part
 * of an answer.
 */
export interface ErrorAnswer {
  status?: number;
  /** RFC 9457 problem `type`; absent means `about:blank`. */
  type?: string;
  /** The problem's application code, e.g. `OUT_OF_STOCK`. */
  code?: string;
  fieldErrors?: readonly ErrorAnswerField[];
  /** The entity the call was about: field pointers are read from its fields. */
  entity?: string;
}

/**
 * The catalogue entry that describes a failed call, or undefined when the catalogue (or point 8) does not
 * cover it. An entry applies when every part it gives matches:
 * - `status`: the same status, or a class such as `5xx` that holds it;
 * - `type`: the problem's type (an entry of `about:blank` also matches an answer that gives none);
 * - `code`: the problem's code, or the code of one of its field errors;
 * - `field` (`Entity.field`, or a path `Entity.field.inner`): one of the answer's field pointers, read from
 *   the call's entity, points at that field or inside it, whatever entity holds it on the way
 *   (`/lines/0/quantity` of an Order is both `Order.lines` and `OrderLine.quantity`). With a `code` too,
 *   that same field error must carry the code, unless the problem as a whole does.
 *
 * When several entries apply, the most specific wins: first the one that gives more parts; between equals,
 * the one with a field, then with a code, then with a type, then an exact status before a class; and last,
 * the one that comes first in the catalogue. A catch-all entry (no status, type, code or field) applies to
 * any answer, and loses to every other. A call with no answer matches nothing: the client says so in its own
 * words.
 *
 * @example
 * ```ts
 * // point 8: | 422 | OUT_OF_STOCK | OrderLine.quantity | Not enough stock for this product. | fix field |
 * //          | 5xx |              |                    | The server had a problem.          | retry     |
 * matchError(model, { status: 422, code: 'OUT_OF_STOCK', entity: 'Order',
 *   fieldErrors: [{ pointer: '/lines/0/quantity', code: 'OUT_OF_STOCK' }] });
 * // { match: { status: 422, code: 'OUT_OF_STOCK' }, field: 'OrderLine.quantity', action: 'fix-field', … }
 * matchError(model, { status: 503 })?.message; // 'The server had a problem.'
 * matchError(model, {});                        // undefined: no answer
 * ```
 */
export function matchError(model: Model, answer: ErrorAnswer): ErrorEntry | undefined {
  return bestEntry(model, answer, () => true);
}

/**
 * For each of the answer's field errors, in order, the catalogue entry with a `field` that describes it
 * (by the rules and order of `matchError`, as if it were the answer's only field error), or undefined.
 * A form shows that entry's message at the field in place of the API's own.
 *
 * @example
 * ```ts
 * matchFieldErrors(model, { status: 422, code: 'VALIDATION_FAILED', entity: 'Order', fieldErrors: [
 *   { pointer: '/lines/0/quantity', code: 'OUT_OF_STOCK' }, { pointer: '/note', code: 'maxLength' }] });
 * // [{ field: 'OrderLine.quantity', message: 'Not enough stock for this product.', … }, undefined]
 * ```
 */
export function matchFieldErrors(model: Model, answer: ErrorAnswer): Array<ErrorEntry | undefined> {
  return (answer.fieldErrors ?? []).map((fieldError) =>
    bestEntry(model, { ...answer, fieldErrors: [fieldError] }, (entry) => entry.field !== undefined),
  );
}

function bestEntry(
  model: Model,
  answer: ErrorAnswer,
  eligible: (entry: ErrorEntry) => boolean,
): ErrorEntry | undefined {
  if (!model.errors.shown || answer.status === undefined) return undefined;
  const status = answer.status;
  const places = (answer.fieldErrors ?? []).map((fieldError) => ({
    fieldError,
    names: answer.entity === undefined ? [] : fieldNamesAt(model, answer.entity, fieldError.pointer),
  }));
  let best: { entry: ErrorEntry; rank: number[] } | undefined;
  for (const entry of model.errors.entries) {
    if (!eligible(entry) || !applies(entry, { ...answer, status }, places)) continue;
    const rank = rankOf(entry);
    if (!best || compareRanks(rank, best.rank) > 0) best = { entry, rank };
  }
  return best?.entry;
}

interface Place {
  fieldError: ErrorAnswerField;
  /** Every `Entity.field…` name the pointer is at. */
  names: string[];
}

function applies(entry: ErrorEntry, answer: ErrorAnswer & { status: number }, places: Place[]): boolean {
  const { match } = entry;
  if (match.status !== undefined && !statusMatches(match.status, answer.status)) return false;
  if (match.type !== undefined && match.type !== (answer.type ?? 'about:blank')) return false;
  const code = match.code;
  if (entry.field !== undefined) {
    const field = entry.field;
    return places.some(
      (place) =>
        place.names.includes(field) &&
        (code === undefined || place.fieldError.code === code || answer.code === code),
    );
  }
  if (code !== undefined) {
    return answer.code === code || places.some((place) => place.fieldError.code === code);
  }
  return true;
}

function statusMatches(expected: NonNullable<ErrorMatch['status']>, status: number): boolean {
  if (typeof expected === 'number') return expected === status;
  const digit = Number(String(expected).charAt(0));
  return Math.floor(status / 100) === digit;
}

/** Bigger is more specific: [parts given, field, code, type, status (exact 2, class 1)]. */
function rankOf(entry: ErrorEntry): number[] {
  const { status, type, code } = entry.match;
  const statusRank = status === undefined ? 0 : typeof status === 'number' ? 2 : 1;
  const given = [status, type, code, entry.field].filter((part) => part !== undefined).length;
  return [given, entry.field ? 1 : 0, code ? 1 : 0, type ? 1 : 0, statusRank];
}

function compareRanks(a: number[], b: number[]): number {
  for (let index = 0; index < a.length; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  // Equal ranks keep the earlier entry: the catalogue's own order decides.
  return 0;
}

/**
 * The names a pointer into a record of `entityName` is at, from every entity it passes through:
 * `/lines/0/quantity` of an Order gives `Order.lines`, `Order.lines.quantity` and `OrderLine.quantity`.
 * The walk stops at a name the entity does not have, and below a field that holds no fields (a pointer
 * into a file's `size` is at the file field).
 */
function fieldNamesAt(model: Model, entityName: string, pointer: string): string[] {
  if (!pointer.startsWith('/')) return [];
  const segments = fromPointer(pointer);
  const names: string[] = [];
  const anchors: Array<{ entity: string; path: string[] }> = [];
  let type: FieldType = { kind: 'object', entity: entityName };
  for (const segment of segments) {
    if (type.kind === 'list') {
      if (!/^\d+$/.test(segment)) break;
      type = type.of;
      continue;
    }
    if (type.kind !== 'object') break;
    const entity = findEntity(model, type.entity);
    const field = entity?.fields.find((candidate) => candidate.name === segment);
    if (!entity || !field) break;
    anchors.push({ entity: entity.name, path: [] });
    for (const anchor of anchors) {
      anchor.path.push(segment);
      names.push(`${anchor.entity}.${anchor.path.join('.')}`);
    }
    type = field;
  }
  return names;
}

/**
 * The words for a rule's refusal found before sending, as the API's answer would get them: a field error
 * carrying the code of its rule (point 5) takes the catalogue's message for a 422 of that code, so the
 * person reads the same sentence whether the form or the API caught it. Others keep their own.
 *
 * @example
 * ```ts
 * catalogueWords(shop, 'Order', [{ pointer: '/lines', code: 'rule', message: '…', ruleCode: 'ORDER_TOTAL_LIMIT' }]);
 * // [{ pointer: '/lines', code: 'rule', message: 'This order is over 50,000 EUR, …', ruleCode: 'ORDER_TOTAL_LIMIT' }]
 * ```
 */
export function catalogueWords<T extends { pointer: string; message: string; ruleCode?: string }>(
  model: Model,
  entity: string,
  errors: readonly T[],
): T[] {
  return errors.map((error) => {
    if (error.ruleCode === undefined) return error;
    const [entry] = matchFieldErrors(model, {
      status: 422,
      code: error.ruleCode,
      fieldErrors: [{ pointer: error.pointer, code: error.ruleCode }],
      entity,
    });
    return entry ? { ...error, message: entry.message } : error;
  });
}

/**
 * The problem codes the prototype API answers with, besides the codes of point 5's rules; a catalogue
 * entry whose code is neither can never match an answer of it. The server's tests hold this list to
 * the codes its sources use.
 */
export const PROTOTYPE_CODES: readonly string[] = [
  'ALREADY_EXISTS',
  'AMBIGUOUS_FORMAT',
  'BAD_CSV',
  'BAD_ENCODING',
  'BAD_GATEWAY',
  'BAD_REQUEST',
  'BODY_NOT_AN_OBJECT',
  'BODY_TOO_DEEP',
  'BODY_TOO_LARGE',
  'CHANGED_SINCE_READ',
  'CLIENT_NOT_BUILT',
  'DUPLICATE_FIELD',
  'EFFECT_FAILED',
  'EMPTY_FILE',
  'EVALUATION_FAILED',
  'FORBIDDEN',
  'FORBIDDEN_FIELDS',
  'GUARD_FAILED',
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'ILLEGAL_TRANSITION',
  'INVALID_CURSOR',
  'INVALID_IDEMPOTENCY_KEY',
  'INVALID_IF_MATCH',
  'INVALID_PERIOD',
  'INVALID_QUERY',
  'INVALID_SIGN_IN',
  'INVALID_TOKEN',
  'LINK_NOT_VALID',
  'MAIL_NOT_SENT',
  'MALFORMED_JSON',
  'MALFORMED_MULTIPART',
  'METHOD_NOT_ALLOWED',
  'MISSING_COLUMNS',
  'NOT_FOUND',
  'NO_SUCH_FIGURE',
  'NOT_IMPLEMENTED',
  'NOT_INVITED',
  'NOT_SIGNED_IN',
  'NOT_TEXT',
  'NO_SUCH_CALL',
  'OWN_ACCOUNT',
  'PRECONDITION_REQUIRED',
  'SERVER_ERROR',
  'SESSION_EXPIRED',
  'SIGN_IN_FAILED',
  'SIGN_IN_UNAVAILABLE',
  'STILL_REFERENCED',
  'TOO_MANY_ATTEMPTS',
  'TOO_MANY_PARTS',
  'TOO_MANY_ROWS',
  'UNKNOWN_CHARSET',
  'UNSUPPORTED_MEDIA_TYPE',
  'UPDATE_REFUSED',
  'URI_TOO_LONG',
  'USE_A_TRANSITION',
  'VALIDATION_FAILED',
];
