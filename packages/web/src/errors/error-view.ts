import {
  type ErrorAction,
  type ErrorAnswer,
  type ErrorEntry,
  exhaustiveSwitchError,
  fillMessage,
  type Model,
  matchError,
  matchFieldErrors,
} from '@ninefold/model';
import { ApiError, type ApiFieldError, NetworkError, UnconfirmedWriteError } from '../data/data-provider';

/** The client's own words for a failure the catalogue does not cover: a key of the `errors` messages. */
export type GenericError =
  | 'network'
  | 'signIn'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'changed'
  | 'invalid'
  | 'busy'
  | 'server'
  | 'refused'
  | 'maybeSaved'
  | 'unconfirmed'
  | 'client';

/** What a person is shown of a failed call, and what they can do next. */
export interface ErrorView {
  /** The catalogue entry (point 8) that covers the failure; absent when none does. */
  entry?: ErrorEntry;
  /**
   * The catalogue's message, else the API's own explanation of a refusal no entry covers (a guard's
   * words); absent means the generic one.
   */
  message?: string;
  generic: GenericError;
  action: ErrorAction;
  /**
   * What the API wrote for people about a refusal that no entry of the catalogue covers, or only one
   * that names a status (a 4xx problem's detail, clipped plain text). A server error's only when it
   * explains itself in a sentence (`explains`): an error class or a stack trace holds internals.
   */
  detail?: string;
  /** For the person to quote: a server error's own reference, else one made here for an uncovered one. */
  reference?: string;
  /** How long a 429 asked to wait, in seconds. */
  retryAfterSeconds?: number;
  /** The answer's field errors, each with the catalogue's message where an entry with a field covers it. */
  fieldErrors: ApiFieldError[];
  /** The pointer of the field the message belongs to, when the entry names one the answer points at. */
  field?: string;
}

/**
 * How a failure is shown: the catalogue's message and action when an entry covers it (`matchError`),
 * otherwise the client's generic words for its kind, with a reference the person can quote. A failure
 * that is neither an `ApiError` nor a `NetworkError` is a fault of the client: generic words and a
 * reference, its message and stack only in the console.
 *
 * @example
 * ```ts
 * errorView(model, new ApiError(422, 'Invalid', undefined, 'OUT_OF_STOCK', undefined,
 *   [{ pointer: '/lines/0/quantity', message: 'Too many', code: 'OUT_OF_STOCK' }], undefined), 'Order');
 * // { message: 'Not enough stock for this product.', action: 'fix-field', field: '/lines/0/quantity',
 * //   fieldErrors: [{ pointer: '/lines/0/quantity', message: 'Not enough stock for this product.', … }], … }
 * ```
 */
export function errorView(model: Model, error: unknown, entity?: string): ErrorView {
  if (error instanceof UnconfirmedWriteError) {
    // Sent, and no answer: saying "try again" could store it twice. The person looks first.
    return { generic: 'unconfirmed', action: 'none', fieldErrors: [] };
  }
  if (error instanceof NetworkError) {
    // No answer: nothing on the server to look up, so no reference either.
    return { generic: 'network', action: 'retry', fieldErrors: [] };
  }
  if (!(error instanceof ApiError)) {
    const reference = referenceFor(error, 'APP');
    console.error(`[ninefold] unexpected failure (reference ${reference})`, error);
    return { generic: 'client', action: 'reload', reference, fieldErrors: [] };
  }

  const answer: ErrorAnswer = {
    status: error.status,
    ...(error.type === undefined ? {} : { type: error.type }),
    ...(error.code === undefined ? {} : { code: error.code }),
    fieldErrors: error.fieldErrors,
    ...(entity === undefined ? {} : { entity }),
  };
  const entry = matchError(model, answer);
  const perField = matchFieldErrors(model, answer);
  const fieldErrors = error.fieldErrors.map((fieldError, index) => {
    const covering = perField[index];
    return covering ? { ...fieldError, message: fillMessage(covering.message, model) } : fieldError;
  });
  const generic = genericOf(error);
  const base = {
    generic,
    fieldErrors,
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
  };
  const server = error.status >= 500;
  // A server error's words are shown only when they read as a sentence for people, never a stack trace.
  const detail = server && !explains(error) ? undefined : (error.detail ?? undefined);
  if (entry) {
    // An entry that names only a status says what kind of failure it is; the API's own words say which.
    const broad =
      entry.match.code === undefined && entry.match.type === undefined && entry.field === undefined;
    const fieldIndex = entry.field === undefined ? -1 : perField.indexOf(entry);
    const field = fieldIndex >= 0 ? error.fieldErrors[fieldIndex]?.pointer : undefined;
    const reference =
      error.reference ?? (entry.action === 'contact-support' ? referenceFor(error) : undefined);
    return {
      ...base,
      entry,
      // `{MAX_OPEN_TICKETS}` in the catalogue reads as the constant's value, as the API's messages do.
      message: fillMessage(entry.message, model),
      action: entry.action,
      ...(broad && detail !== undefined ? { detail } : {}),
      ...(field === undefined ? {} : { field }),
      ...(reference === undefined ? {} : { reference }),
    };
  }
  const firstField = fieldErrors[0]?.pointer;
  if (detail !== undefined && EXPLAINED.has(generic)) {
    // A refusal the API explains (a guard's message, a rule's words) leads with its own words: the
    // client's generic ones would read as a malfunction, and nothing failed that a reference could trace.
    return { ...base, message: detail, action: genericAction(error) };
  }
  return {
    ...base,
    action: genericAction(error),
    reference: (server ? error.reference : undefined) ?? referenceFor(error),
    ...(detail === undefined ? {} : { detail }),
    ...(firstField === undefined || generic !== 'invalid' ? {} : { field: firstField }),
  };
}

/** Refusals whose reason is the API's to tell: its words say why better than the client's generic ones. */
const EXPLAINED: ReadonlySet<GenericError> = new Set(['conflict', 'refused', 'forbidden']);

function genericOf(error: ApiError): GenericError {
  const { status } = error;
  if (status === 401) return 'signIn';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'notFound';
  if (status === 409) return error.code === 'IDEMPOTENCY_IN_PROGRESS' ? 'busy' : 'conflict';
  if (status === 412 || status === 428) return 'changed';
  // The same save was sent before with other values (a restored draft edited since): it may have gone
  // through; saying "refused" would invite a second record.
  if (status === 422 && error.code === 'IDEMPOTENCY_KEY_REUSED') return 'maybeSaved';
  if (status === 400 || status === 422) return error.fieldErrors.length > 0 ? 'invalid' : 'refused';
  if (status === 408 || status === 429) return 'busy';
  if (status >= 500) return 'server';
  return 'refused';
}

/**
 * Whether a server error's answer explains itself (`{"message": "Value has to be at most 60"}`): then
 * trying again would fail the same way, and its words are worth more than "try again in a moment".
 * A gateway's 502 to 504, a text with a stack trace's lines or one longer than a sentence or two do not.
 */
function explains(error: ApiError): boolean {
  const text = error.detail;
  if (text === undefined || error.status > 501) return false;
  return (
    text.length <= 240 &&
    // `SqliteError: no such table`, `TypeError: …`, a stack's `at f (file:1:2)`: the server's insides.
    !/^[\w.]*(?:Error|Exception)\b|\n\s*at |\bat [\w.$<>]+ \(|Traceback/.test(text)
  );
}

/** What the client itself offers for an uncovered failure: only what surely helps. */
function genericAction(error: ApiError): ErrorAction {
  const generic = genericOf(error);
  if (generic === 'server' && explains(error)) return 'none';
  switch (generic) {
    case 'signIn':
      return 'sign-in';
    case 'notFound':
      return 'go-back';
    case 'conflict':
    case 'changed':
      return 'reload';
    case 'invalid':
      return 'fix-field';
    case 'busy':
    case 'server':
    case 'network':
      return 'retry';
    case 'forbidden':
    case 'refused':
    case 'maybeSaved':
    case 'unconfirmed':
    case 'client':
      return 'none';
    default:
      return exhaustiveSwitchError(generic);
  }
}

const references = new WeakMap<object, string>();
/** Crockford's base 32: no I, L, O or U, so that a reference read aloud is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A short reference for a failure that brought none, the same each time the failure is shown: the status
 * (or what failed) and six random characters, e.g. `409-7KQ2XM`. It is written to the console with the
 * status and code, so that whoever the person quotes it to can find it there.
 */
export function referenceFor(error: unknown, prefix?: string): string {
  const key = typeof error === 'object' && error !== null ? error : undefined;
  const known = key ? references.get(key) : undefined;
  if (known) return known;
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  const suffix = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
  const head = prefix ?? (error instanceof ApiError ? String(error.status) : 'ERR');
  const reference = `${head}-${suffix}`;
  if (key) references.set(key, reference);
  if (error instanceof ApiError) {
    console.info(`[ninefold] reference ${reference}: ${error.status} ${error.code ?? ''}`.trim());
  }
  return reference;
}
