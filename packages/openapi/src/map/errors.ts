import type { ErrorAction, ErrorEntry } from '@ninefold/model';
import type { MapContext } from './context';
import { deref, isRecord, list } from './document';
import { type OperationInfo, pickContent, textOf } from './operations';

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed',
  413: 'Content too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/**
 * Point 8: one entry per error status the operations answer (4xx, 5xx), the first description read as
 * its message; RFC 9457 problem schemas with a `code` enum give one entry per code.
 *
 * @example
 * ```ts
 * mapErrors(context, operations)[0]; // { match: { status: 401 }, message: 'Unauthorized', action: 'sign-in' }
 * ```
 */
export function mapErrors(context: MapContext, operations: OperationInfo[]): ErrorEntry[] {
  const found = new Map<string, FoundError>();
  // Documents share error answers (components.responses): each is read once.
  const read = new Map<unknown, { description: string | undefined; codes: string[] } | null>();
  for (const info of operations) {
    const responses = info.operation.responses;
    if (!isRecord(responses)) continue;
    for (const code in responses) {
      const first = code.charCodeAt(0);
      // '4' or '5': only error answers are read at all.
      if (first !== 52 && first !== 53) continue;
      const status = /^[45]\d\d$/.test(code)
        ? Number(code)
        : /^[45]XX$/i.test(code)
          ? (`${code[0]}xx` as `${4 | 5}xx`)
          : undefined;
      if (status === undefined) continue;
      const response = deref(context.doc, responses[code]);
      let known = read.get(response);
      if (known === undefined) {
        known = isRecord(response)
          ? {
              description: textOf(response.description)?.split('\n')[0],
              codes: problemCodes(context, response),
            }
          : null;
        read.set(response, known);
      }
      if (known === null) continue;
      const { description, codes } = known;
      for (const problemCode of codes.length > 0 ? codes : [undefined]) {
        const key = `${String(status)} ${problemCode ?? ''}`;
        const seen = found.get(key);
        if (seen !== undefined) {
          seen.descriptions.add(description);
          continue;
        }
        const at = `${info.pointer}/responses/${code}`;
        found.set(key, {
          status,
          at,
          descriptions: new Set([description]),
          ...(problemCode ? { problemCode } : {}),
        });
      }
    }
  }
  const entries = [...found.values()].map((error) => entryOf(context, error));
  // Specific statuses first, then classes such as 5xx, so that a class never hides an exact status.
  return entries.sort(
    (a, b) => Number(typeof a.match.status !== 'number') - Number(typeof b.match.status !== 'number'),
  );
}

/** One status (and problem code) that the operations answer, with every description they give it. */
interface FoundError {
  status: number | `${4 | 5}xx`;
  problemCode?: string;
  /** Where it is first documented. */
  at: string;
  descriptions: Set<string | undefined>;
}

/**
 * The entry for an error status. An entry covers that status from every call, so a description is its
 * message only when every operation says the same: "Invalid filter syntax", written for a search, must
 * not explain a refused save. Otherwise the reason phrase stands, and the client shows the API's own
 * words beside it.
 */
function entryOf(context: MapContext, { status, problemCode, at, descriptions }: FoundError): ErrorEntry {
  const action = actionFor(status);
  const reason = typeof status === 'number' ? REASONS[status] : undefined;
  const [only] = descriptions.size === 1 ? descriptions : [];
  const message =
    problemCode !== undefined ? humanize(problemCode) : (only ?? reason ?? `The request failed (${status}).`);
  const entry: ErrorEntry = {
    match: problemCode === undefined ? { status } : { status, code: problemCode },
    message,
    action,
  };
  context.report.add(
    'errors',
    'mapped',
    at,
    `${status}${problemCode ? ` ${problemCode}` : ''}: "${message}"`,
  );
  if (problemCode === undefined && only === undefined)
    context.report.add(
      'errors',
      'inferred',
      at,
      descriptions.size > 1
        ? `message for ${status} is the standard reason phrase: the operations describe ${status} in ${descriptions.size} ways, each about its own call, and the client shows what the API answers beside it`
        : `message for ${status} is the standard reason phrase: the response has no description`,
    );
  context.report.add('errors', 'inferred', at, `action "${action}" for ${status} follows from the status`);
  return entry;
}

function actionFor(status: number | string): ErrorAction {
  if (status === 401) return 'sign-in';
  if (status === 400 || status === 422) return 'fix-field';
  if (status === 403 || status === 404 || status === 410) return 'go-back';
  if (status === 409 || status === 412) return 'reload';
  if (status === 429 || status === 503 || status === 502 || status === 504) return 'retry';
  if (typeof status === 'string' && status.startsWith('5')) return 'retry';
  if (typeof status === 'number' && status >= 500) return 'contact-support';
  return 'none';
}

/** `code` enum values of an RFC 9457 problem schema (`type`/`title`/`status` properties, or problem+json). */
function problemCodes(context: MapContext, response: Record<string, unknown>): string[] {
  const content = isRecord(response.content) ? response.content : {};
  const problemType = Object.keys(content).find((type) =>
    type.toLowerCase().startsWith('application/problem+json'),
  );
  const picked = problemType ? { media: content[problemType] } : pickContent(content);
  const schema = isRecord(picked?.media) ? deref(context.doc, picked.media.schema) : undefined;
  if (!isRecord(schema)) return [];
  const properties = collectProperties(context, schema);
  const isProblem =
    problemType !== undefined ||
    (properties.has('type') && properties.has('title')) ||
    (properties.has('status') && properties.has('title'));
  const code = deref(context.doc, properties.get('code'));
  if (!isProblem || !isRecord(code)) return [];
  return list(code.enum).filter((v): v is string => typeof v === 'string');
}

function collectProperties(
  context: MapContext,
  schema: Record<string, unknown>,
  depth = 0,
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (depth > 8) return out;
  if (isRecord(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) out.set(k, v);
  for (const part of list(schema.allOf)) {
    const resolved = deref(context.doc, part);
    if (isRecord(resolved))
      for (const [k, v] of collectProperties(context, resolved, depth + 1)) if (!out.has(k)) out.set(k, v);
  }
  return out;
}

function humanize(code: string): string {
  const words = code.replace(/[_-]+/g, ' ').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
