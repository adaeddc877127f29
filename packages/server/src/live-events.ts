import {
  checkAction,
  findEntity,
  type Model,
  mayKnowWhoActed,
  type Principal,
  permissionsApply,
  personName,
} from '@ninefold/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticationOf, principalOf } from './access';
import type { Authentication, Authenticator } from './auth/authenticate';
import { presenterOf } from './present';
import { ProblemError, problem } from './problem';
import type { Context } from './record-context';
import type { NewEvent, StoredEvent } from './store/shared-state';
import type { Store, StoredRecord } from './store/store';

/** What one stream is told of a change: only what its person may read. */
export interface LiveEvent {
  entity: string;
  key?: string;
  /** `hidden`: the record left what this person may read (a condition on it stopped holding). */
  kind: 'created' | 'updated' | 'deleted' | 'hidden' | 'changed';
  record?: StoredRecord;
  by?: { id: string; name: string };
  at: string;
}

/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;
/** A stream further behind than this (a client that stopped reading) is closed; it may resume. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Events read at once, when catching up or after a notification. */
const BATCH = 500;
/** A resumed stream's backlog is read in at most this many batches. */
const MAX_BACKLOG_BATCHES = 40;
/** Ids of events already sent, so that one announced twice (or out of order) is sent once. */
const REMEMBERED_IDS = 10_000;

interface Stream {
  principal: Principal;
  /** Events are grouped by whose view they are: each person's view is computed once per event. */
  viewKey: string;
  reply: FastifyReply;
  /** The last event id sent: one announced again, or out of order, is not sent twice. */
  position: number;
  /** While the backlog is being sent: the frames announced meanwhile, in order. */
  pending: Array<[number, string | undefined]> | undefined;
  session?: { tokenId: string; expiresAt: number };
  /** Whose stream it is, and what their credentials stood on when it opened (`Authenticator.standing`). */
  holder?: { id: string; standing: string | undefined };
  close(): void;
}

/**
 * Records a change for live updates, after its write committed. A failure to record it loses that live
 * update only, never the write: it is reported, not thrown.
 */
export function publishChange(
  context: Context,
  request: FastifyRequest,
  change: Omit<NewEvent, 'at' | 'by'>,
): void {
  const user = principalOf(request).user;
  const id = user?.id;
  const by =
    id === undefined || id === null
      ? undefined
      : { id: String(id), name: personName(user ?? {}) ?? String(user?.email ?? id) };
  // Not awaited: events of one turn of the event loop are written together (see `appendEvent`); written
  // one by one and waited for, they cost a third of the creates a node answered on PostgreSQL. The store
  // waits for them before it closes.
  void context.store.shared
    .appendEvent({ ...change, at: context.now().getTime(), ...(by ? { by } : {}) })
    .catch((error: unknown) => context.onServerError?.('live-event', error));
}

/**
 * What a person sees of an event: nothing when their role may not read the entity, or the record neither
 * before nor after the change (a condition on the record is asked of both); the record as their role
 * may see it, hidden fields left out; or only that it left their view (`hidden`). Who made the change is
 * told only to a role that may change the record too (editors who might overwrite each other): a role
 * that only reads it, a customer following their order, does not learn the staff's names.
 */
export function eventFor(model: Model, principal: Principal, event: StoredEvent): LiveEvent | undefined {
  const entity = findEntity(model, event.entity);
  if (!entity || entity.embedded) return undefined;
  const applies = permissionsApply(model);
  const changed = event.kind === 'deleted' ? event.before : (event.after ?? event.before);
  const editor = mayKnowWhoActed(model, principal, entity.name, changed);
  const base = {
    entity: entity.name,
    at: new Date(event.at).toISOString(),
    ...(event.by && editor ? { by: event.by } : {}),
  };
  if (applies && !checkAction(model, principal, entity.name, 'read').allowed) return undefined;
  if (event.key === undefined) return { ...base, kind: 'changed' };
  const readable = (record: StoredRecord | undefined): record is StoredRecord =>
    record !== undefined && (!applies || checkAction(model, principal, entity.name, 'read', record).allowed);
  const key = { key: event.key };
  const after = event.kind === 'deleted' ? undefined : event.after;
  if (readable(after)) {
    const kind = event.kind === 'created' || !readable(event.before) ? 'created' : 'updated';
    return {
      ...base,
      ...key,
      kind: event.kind === 'changed' ? 'changed' : kind,
      record: presenterOf(model, principal, entity)(after),
    };
  }
  if (!readable(event.before)) return undefined;
  return { ...base, ...key, kind: event.kind === 'deleted' ? 'deleted' : 'hidden' };
}

/**
 * `GET {base}/_events`: server-sent events of changes to records, for the person the request's
 * credentials name (its `Authorization` header, read by `fetch`; or a one-use ticket from
 * `POST {base}/_events/tickets` for `EventSource`, which cannot send headers). `Last-Event-ID` resumes
 * after a drop; past the retention window the stream says `reset`, and the client reads everything again.
 * Every node on one database sees every node's events (PostgreSQL notifications; SQLite is one process).
 */
export function registerEvents(
  app: FastifyInstance,
  options: { path: string; context: Context; authenticator: Authenticator },
): () => number {
  const { context, authenticator, path } = options;
  const { model, store } = context;
  const streams = new Set<Stream>();
  const hub = eventHub(store, model, streams, authenticator);

  app.addHook('preClose', async () => {
    for (const stream of [...streams]) stream.close();
    hub.stop();
  });

  app.post(`${path}/tickets`, async (request) => {
    const who = authenticationOf(request);
    if (who.kind !== 'user') {
      throw new ProblemError(problem(401, 'NOT_SIGNED_IN', 'Sign in to open the events stream.'));
    }
    const id = who.principal.user.id;
    if (typeof id !== 'string' || !ticketsApply(authenticator.kind)) {
      throw new ProblemError(
        problem(
          501,
          'NOT_IMPLEMENTED',
          'This sign-in has no tickets: open the events stream with the Authorization header.',
        ),
      );
    }
    const issued = await authenticator.issueTicket({ id, role: who.principal.role });
    return { ticket: issued.ticket, expiresAt: new Date(issued.expiresAt * 1000).toISOString() };
  });

  app.get(path, async (request, reply) => {
    const who = await streamAuthentication(request, authenticator);
    if (who.kind === 'refused') throw new ProblemError(problem(401, who.code, who.message));
    const principal: Principal = who.kind === 'user' ? who.principal : {};
    if (permissionsApply(model) && principal.role === undefined) {
      throw new ProblemError(problem(401, 'NOT_SIGNED_IN', 'Sign in to follow changes.'));
    }
    const userId = principal.user?.id;
    const holder =
      userId === undefined || userId === null
        ? undefined
        : { id: String(userId), standing: await authenticator.standing(String(userId)) };
    const resumeFrom = lastEventId(request.headers['last-event-id']);
    await hub.start();
    // Before the answer begins: a database failure here is still a problem answer.
    const newest = await store.shared.lastEventId();
    let missed = false;
    if (resumeFrom !== undefined && resumeFrom !== newest) {
      const oldest = await store.shared.oldestEventId();
      // Past the retention window (or from another database): what was missed cannot be told.
      missed = resumeFrom > newest || oldest === undefined || oldest > resumeFrom + 1;
    }
    const start = resumeFrom === undefined || missed ? newest : resumeFrom;

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      // Headers set by hooks before the answer was taken over (CORS for an allowed origin).
      ...(Object.fromEntries(
        Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined),
      ) as Record<string, string | number | string[]>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    let heartbeat: NodeJS.Timeout | undefined;
    let expiry: NodeJS.Timeout | undefined;
    const stream: Stream = {
      principal,
      viewKey: viewKeyOf(principal),
      reply,
      position: start,
      // Until the backlog is sent, what the hub announces waits, so that events go out in order.
      pending: [],
      ...(who.kind === 'user' && who.session ? { session: who.session } : {}),
      ...(holder ? { holder } : {}),
      close() {
        if (!streams.delete(stream)) return;
        clearInterval(heartbeat);
        clearTimeout(expiry);
        raw.end();
      },
    };
    streams.add(stream);
    raw.on('close', () => stream.close());
    raw.write(`retry: 3000\nid: ${start}\nevent: ${missed ? 'reset' : 'ready'}\ndata: {}\n\n`);
    try {
      // What was missed since `start`, in batches; more than the window holds would not be asked for.
      let complete = false;
      for (let from = start, batches = 0; !complete && batches < MAX_BACKLOG_BATCHES; batches++) {
        const backlog = await store.shared.eventsAfter(from, BATCH);
        for (const event of backlog) {
          const shown = eventFor(model, principal, event);
          send(stream, event.id, shown ? frame(event.id, shown) : undefined);
        }
        complete = backlog.length < BATCH;
        from = backlog.at(-1)?.id ?? from;
      }
      if (!complete) raw.write('event: reset\ndata: {}\n\n');
    } catch {
      // The backlog could not be read: the client is told to read everything again.
      raw.write('event: reset\ndata: {}\n\n');
    }
    // The backlog's frames and those the hub announced meanwhile, in the order of their ids: one the hub
    // sent first must not make an earlier one of the backlog look old.
    const waiting = (stream.pending ?? []).sort(([a], [b]) => a - b);
    stream.pending = undefined;
    for (const [id, text] of waiting) send(stream, id, text);
    heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    // A session token expires: the stream ends with it, and the client opens it again with a fresh one.
    if (stream.session) {
      const left = stream.session.expiresAt * 1000 - Date.now();
      expiry = setTimeout(() => stream.close(), Math.max(0, Math.min(left, 2 ** 31 - 1)));
      expiry.unref();
    }
  });
  return () => streams.size;
}

function ticketsApply(kind: Authenticator['kind']): boolean {
  return kind === 'password' || kind === 'basic' || kind === 'token' || kind === 'api-key';
}

async function streamAuthentication(
  request: FastifyRequest,
  authenticator: Authenticator,
): Promise<Authentication> {
  const who = authenticationOf(request);
  const ticket = (request.query as { ticket?: unknown }).ticket;
  if (typeof ticket !== 'string' || who.kind !== 'anonymous') return who;
  return authenticator.redeemTicket(ticket);
}

function lastEventId(header: string | string[] | undefined): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

function viewKeyOf(principal: Principal): string {
  return JSON.stringify([principal.role ?? null, principal.user ?? null]);
}

/** Sends an event's frame, or for one this person may not see, only its id. */
function send(stream: Stream, id: number, text: string | undefined): void {
  if (stream.pending) {
    stream.pending.push([id, text]);
    return;
  }
  if (id <= stream.position) return;
  stream.position = id;
  const raw = stream.reply.raw;
  if (raw.writableLength > MAX_BUFFERED_BYTES) {
    stream.close();
    return;
  }
  // An event this person may not see still moves their position on, so a resume does not replay it.
  raw.write(text ?? `id: ${id}\n\n`);
}

function frame(id: number, event: LiveEvent): string {
  return `id: ${id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Reads each event once per node, as soon as it is announced, and sends it to every stream, each
 * person's view computed once. A stream whose session was signed out, or whose person a manager changed
 * (role, attributes, ended sessions, deactivated), is closed on the next event: it was opened for who
 * they were, and the client opens it again as who they are, or is refused.
 */
function eventHub(store: Store, model: Model, streams: Set<Stream>, authenticator: Authenticator) {
  let last: number | undefined;
  let started: Promise<void> | undefined;
  let running = false;
  let again = false;
  const wanted = new Set<number>();
  const sent = new Set<number>();
  let unsubscribe: (() => void) | undefined;

  const remember = (id: number) => {
    sent.add(id);
    if (sent.size > REMEMBERED_IDS) {
      const oldest = sent.values().next().value;
      if (oldest !== undefined) sent.delete(oldest);
    }
  };

  const dispatch = async (event: StoredEvent) => {
    const views = new Map<string, string | undefined>();
    const standings = new Map<string, Promise<string | undefined>>();
    const standing = (id: string) => {
      let found = standings.get(id);
      if (!found) {
        found = authenticator.standing(id);
        standings.set(id, found);
      }
      return found;
    };
    for (const stream of [...streams]) {
      if (stream.session && (await store.shared.isRevoked(stream.session.tokenId))) {
        stream.close();
        continue;
      }
      if (stream.holder && (await standing(stream.holder.id)) !== stream.holder.standing) {
        stream.close();
        continue;
      }
      if (!views.has(stream.viewKey)) {
        const shown = eventFor(model, stream.principal, event);
        views.set(stream.viewKey, shown ? frame(event.id, shown) : undefined);
      }
      send(stream, event.id, views.get(stream.viewKey));
    }
  };

  const drain = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const also = [...wanted].find((id) => last !== undefined && id <= last && !sent.has(id));
        wanted.clear();
        const events = await store.shared.eventsAfter(last ?? 0, BATCH, also);
        for (const event of events) {
          if (sent.has(event.id)) continue;
          remember(event.id);
          last = Math.max(last ?? 0, event.id);
          await dispatch(event);
        }
        if (events.length === BATCH) again = true;
      } while (again);
    } catch {
      // The database could not be read: the next announcement reads from the same place again.
    } finally {
      running = false;
    }
  };

  return {
    start(): Promise<void> {
      started ??= (async () => {
        last = await store.shared.lastEventId();
        unsubscribe = store.shared.onEvents((id) => {
          if (id !== undefined) wanted.add(id);
          void drain();
        });
      })();
      started.catch(() => {
        started = undefined;
      });
      return started;
    },
    stop() {
      unsubscribe?.();
    },
  };
}
