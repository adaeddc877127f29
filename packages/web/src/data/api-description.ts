import type { Call, Model } from '@ninefold/model';

/** The calls a client makes, as `/spec.json` gives them: the specification's own, or conventional ones. */
export interface ApiDescription {
  /** Prefix of every call path: `/api` for the prototype API and the dev proxy, or an absolute URL. */
  base: string;
  /** True when point 7 is not shown and the prototype API serves conventional REST calls instead. */
  conventional: boolean;
  calls: Call[];
  /** Present when the API is Ninefold's prototype API and point 6 names a sign-in: its session calls. */
  auth?: PrototypeAuth;
  /**
   * Present when the API is Ninefold's prototype API and point 4 is shown: where it answers a record's
   * transitions, relative to `base` (`GET {history}/{Entity}/{id}` gives `{ items: [...] }`, newest first).
   */
  history?: string;
  /** Present when the API is Ninefold's prototype API: a list call answers `Accept: text/csv` with the whole list. */
  csv?: true;
  /** Where Ninefold's prototype API takes a CSV import, relative to `base`: `POST {import}/{Entity}`. */
  import?: string;
  /** Where Ninefold's prototype API names records a role may not open: `GET {names}/{Entity}?id=…`. */
  names?: string;
  /** Where it names the people person fields hold (`user.id` set on create): `GET {people}?id=…`. */
  people?: string;
  /** Where it answers a dashboard's figures of point 2: `GET {figures}/{screen}/{figure}`. */
  figures?: string;
  /** Where Ninefold's prototype API streams changes to records (server-sent events): `GET {events}`. */
  events?: string;
  /**
   * Present when every create and transition honours an `Idempotency-Key` (Ninefold's prototype API
   * does). Otherwise only a call that declares that header parameter gets one, and no other write is
   * ever sent twice.
   */
  idempotency?: true;
}

/**
 * The prototype API's own session calls, relative to `base`: `session` answers who the credentials
 * belong to (`{ user, expiresAt? }`), `refresh` trades a live token for a fresh one, `signOut` revokes it.
 */
export interface PrototypeAuth {
  session: string;
  refresh?: string;
  signOut: string;
}

/**
 * The calls as `/spec.json` sends them: without `calls` when they are point 7 of the model, which holds
 * them already (see `apiOf`).
 */
export type ApiWire = Omit<ApiDescription, 'calls'> & { calls?: Call[] };

/** The calls a client makes, from the payload: those `api` lists, else the model's own. */
export function apiOf(model: Model, wire: ApiWire): ApiDescription {
  return {
    base: wire.base,
    conventional: wire.conventional,
    calls: wire.calls ?? (model.calls.shown ? model.calls.items : []),
    ...(wire.auth ? { auth: wire.auth } : {}),
    ...(wire.history ? { history: wire.history } : {}),
    ...(wire.csv ? { csv: wire.csv } : {}),
    ...(wire.import ? { import: wire.import } : {}),
    ...(wire.names ? { names: wire.names } : {}),
    ...(wire.people ? { people: wire.people } : {}),
    ...(wire.figures ? { figures: wire.figures } : {}),
    ...(wire.events ? { events: wire.events } : {}),
    ...(wire.idempotency ? { idempotency: wire.idempotency } : {}),
  };
}

/** What the client boots from: the checked model, the calls, and in `ninefold dev` the check issues. */
export interface SpecPayload {
  model: Model;
  api: ApiDescription;
  /** Only in `ninefold dev`: the specification's check issues, shown in the page. */
  dev?: { issues: DevIssue[]; reload: boolean };
}

export interface DevIssue {
  severity: 'error' | 'warning';
  message: string;
  source?: string;
  code: string;
}

/**
 * Whether a write through `call` may carry an `Idempotency-Key` and so be tried again: the API says it
 * honours them, or the call declares the header.
 *
 * @example
 * takesIdempotencyKey({ base: '/api', conventional: true, calls: [] }, createOrder); // false
 */
export function takesIdempotencyKey(api: ApiDescription, call: Call): boolean {
  return (
    api.idempotency === true ||
    call.parameters.some(
      (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key',
    )
  );
}
