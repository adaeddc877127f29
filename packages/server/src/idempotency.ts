import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from './access';
import { ProblemError, problem } from './problem';
import type { Store, StoredAnswer, WriteFailure, WriteResult } from './store/store';

/** How long an answer is kept for a retry with the same key. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claimed key counts as being handled. A handler that has not finished by then is assumed
 * dead (the process stopped), and the key is free again; requests here take milliseconds.
 */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
/** 1 to 200 visible ASCII characters: a UUID, a ULID, or any token a client makes. */
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;
/** The headers of an answer that a replay repeats. */
const REPLAYED_HEADERS = ['content-type', 'etag', 'location'] as const;

interface Claimed {
  id: string;
  token: string;
}

/** The key each request claimed, until its answer is stored (see `registerIdempotency`). */
const claims = new WeakMap<FastifyRequest, Claimed>();

/** Thrown by `claimIdempotency` when the key was answered already: the error handler sends the answer. */
export class IdempotentReplay extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('replayed');
    this.name = 'IdempotentReplay';
  }
}

/**
 * Honours an `Idempotency-Key` on a POST call before the call changes anything. Called by the handler
 * once it has read what the request asks (`asked`: the decoded body, the query), since that is what a
 * repeat must ask too; a multipart body can only be read by the handler. Without a key it does nothing.
 *
 * - The first request with a key claims it and is handled; its answer is stored by the `onSend` hook.
 * - A repeat asking the same gets the stored answer (`IdempotentReplay`), with `Idempotency-Replayed`.
 * - A repeat asking something else is `422 IDEMPOTENCY_KEY_REUSED`.
 * - A repeat while the first is being handled is `409 IDEMPOTENCY_IN_PROGRESS` with `Retry-After: 1`.
 *
 * Keys belong to who sends them (the user's id, or "anonymous"), the method and the path.
 */
export async function claimIdempotency(
  store: Store,
  request: FastifyRequest,
  now: number,
  asked: unknown,
): Promise<void> {
  const key = idempotencyKeyOf(request);
  if (key === undefined || request.method !== 'POST') return;
  const mark = request.url.indexOf('?');
  const path = mark < 0 ? request.url : request.url.slice(0, mark);
  const query = mark < 0 ? '' : request.url.slice(mark + 1);
  const who = principalOf(request).user?.id;
  const id = sha256(
    JSON.stringify([who === undefined ? 'anonymous' : String(who), request.method, path, key]),
  );
  const fingerprint = sha256(stableJson({ query, asked }));
  const token = randomUUID();
  const found = await store.claimIdempotencyKey({
    id,
    token,
    fingerprint,
    now,
    leaseUntil: now + IDEMPOTENCY_LEASE_MS,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  });
  if (found === 'claimed') {
    claims.set(request, { id, token });
    return;
  }
  if (found.fingerprint !== fingerprint) {
    throw new ProblemError(
      problem(
        422,
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for a different request; use a new key for a new request.',
      ),
    );
  }
  if (!found.answer) throw inProgress();
  throw new IdempotentReplay(found.answer);
}

/** The request's key; a key that is not 1 to 200 visible ASCII characters is refused. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
    throw new ProblemError(
      problem(
        400,
        'INVALID_IDEMPOTENCY_KEY',
        'Idempotency-Key must be 1 to 200 visible ASCII characters, such as a UUID.',
      ),
    );
  }
  return header;
}

/** An answer as a handler makes it: the JSON body is turned into the exact bytes that are stored and sent. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Thrown inside the write's transaction when the claim was taken over meanwhile: the write is undone. */
class ClaimLost extends Error {}

/**
 * Runs a write and, when the request claimed an idempotency key, stores the answer to it in the same
 * transaction: the record and the answer that reports it are committed together or not at all. So a
 * process killed at any moment leaves either nothing (the retry runs the call) or both (the retry is
 * answered as the first was), never a record without its answer, which a retry would create again.
 *
 * @example
 * ```ts
 * const written = await writeAnswered(store, request, (tx) => tx.create('Order', values), (order) => ({
 *   status: 201, headers: { etag: '"1"' }, body: order,
 * }));
 * if (written.ok) sendAnswer(reply, written.answer);
 * ```
 */
export async function writeAnswered<T>(
  store: Store,
  request: FastifyRequest,
  write: (store: Store) => Promise<WriteResult<T>>,
  answerTo: (value: T) => Answer,
  afterCommit?: () => void | Promise<void>,
): Promise<AnsweredWrite<T>> {
  const claim = claims.get(request);
  const answered = (result: WriteResult<T>): AnsweredWrite<T> => {
    if (!result.ok) return result;
    const made = answerTo(result.value);
    const answer: StoredAnswer = {
      status: made.status,
      headers: { ...made.headers, 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(JSON.stringify(made.body), 'utf8'),
    };
    return { ok: true, value: result.value, answer };
  };
  let outcome: AnsweredWrite<T>;
  if (!claim) {
    outcome = answered(await write(store));
  } else {
    try {
      outcome = await store.transaction(async (tx) => {
        const done = answered(await write(tx));
        if (done.ok && !(await tx.completeIdempotencyKey(claim.id, claim.token, done.answer))) {
          throw new ClaimLost();
        }
        return done;
      });
    } catch (error) {
      if (!(error instanceof ClaimLost)) throw error;
      // Another request took the key over (this one outlived its lease): it answers; this one wrote nothing.
      throw inProgress();
    }
    // Stored with the write: the onSend hook must neither store it again nor release it on a later failure.
    if (outcome.ok) claims.delete(request);
  }
  if (outcome.ok) await afterCommit?.();
  return outcome;
}

export type AnsweredWrite<T> =
  | { ok: true; value: T; answer: StoredAnswer }
  | { ok: false; failure: WriteFailure };

/** Sends an answer made by `writeAnswered`: the same bytes a replay will send. */
export function sendAnswer(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  return reply.code(answer.status).send(Buffer.from(answer.body));
}

function inProgress(): ProblemError {
  return new ProblemError(
    problem(
      409,
      'IDEMPOTENCY_IN_PROGRESS',
      'The same request is still being handled; try again in a moment.',
    ),
    { 'retry-after': '1' },
  );
}

/** Sends a stored answer again, saying so. */
export function sendReplay(reply: FastifyReply, answer: StoredAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  reply.code(answer.status).header('idempotency-replayed', 'true').send(Buffer.from(answer.body));
}

/** Answers about the moment, not the request: replaying them for a day would be wrong. */
const TRANSIENT = new Set([401, 408, 429]);

/**
 * Stores the answer of each request that claimed a key and wrote nothing (a refusal), before it is sent,
 * so a retry that follows it finds it; an answer to a write was stored with the write (`writeAnswered`).
 * Answers that say "not now" rather than "no" (5xx, 401, 408, 429) are not stored: the key is released
 * and a retry, once signed in again or after the wait, runs the call again. If storing fails, the claim
 * stays until its lease runs out (or the server starts again): nothing was written under it.
 */
export function registerIdempotency(
  app: FastifyInstance,
  store: Store,
  report: (error: unknown) => void,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    const body = bytesOf(payload);
    try {
      if (TRANSIENT.has(reply.statusCode) || reply.statusCode >= 500 || body === undefined) {
        await store.releaseIdempotencyKey(claim.id, claim.token);
      } else {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await store.completeIdempotencyKey(claim.id, claim.token, {
          status: reply.statusCode,
          headers,
          body,
        });
      }
    } catch (error) {
      report(error);
    }
    return payload;
  });
}

/** The bytes of an answer about to be sent; undefined for a stream, which cannot be kept. */
function bytesOf(payload: unknown): Uint8Array | undefined {
  if (payload === undefined || payload === null) return new Uint8Array();
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (payload instanceof Uint8Array) return payload;
  return undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted, so that `{a, b}` and `{b, a}` ask the same. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    if (inner instanceof URLSearchParams) return [...inner];
    return Object.fromEntries(
      Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });
}
