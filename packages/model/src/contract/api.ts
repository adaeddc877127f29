import type { Call, Entity, FilterParam, Model, StateMachine, Transition } from '../model';
import { resolveAmount } from '../rules/constants';
import { conventionalTransitionCall } from '../rules/write-plan';

/** Where the prototype API serves its calls; call paths are relative to it. */
export const API_BASE = '/api';

/** The most records one list request may ask for when neither the call nor a constant says. */
export const DEFAULT_MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

/**
 * The calls the prototype API serves and the client uses. When point 7 is shown, they are exactly its
 * calls. When it is not, the API serves documented conventional REST calls for each entity, and says so
 * (`conventional: true`) instead of pretending the specification named them.
 */
export interface ApiDescription {
  base: string;
  conventional: boolean;
  calls: Call[];
  /** The prototype API's own session calls, when point 6 names a sign-in (see `prototypeApi`). */
  auth?: PrototypeAuth;
  /**
   * Where the prototype API answers a record's transitions, relative to the base, when point 4 is shown:
   * `GET {history}/{Entity}/{id}`.
   */
  history?: string;
  /** Present when the API is the prototype API: a list call answers `Accept: text/csv` with the whole list. */
  csv?: true;
  /** Where the prototype API takes a CSV import, relative to the base: `POST {import}/{Entity}`. */
  import?: string;
  /**
   * Where the prototype API names records for a role that may not read them, relative to the base:
   * `GET {names}/{Entity}?id=…` gives `{ items: [{ id, name }] }` (docs/prototype-api.md).
   */
  names?: string;
  /** Where it names the people that person fields (`user.id` set on create) hold: `GET {people}?id=…`. */
  people?: string;
  /** Where it answers a dashboard's figures of point 2: `GET {figures}/{screen}/{figure}`. */
  figures?: string;
  /** Where it streams changes to records as server-sent events: `GET {events}` (live updates). */
  events?: string;
  /** Present when every create and transition honours an `Idempotency-Key`, as the prototype API's do. */
  idempotency?: true;
  /**
   * Where the prototype API answers its audit trail, relative to the base: `GET {audit}` across records
   * and `GET {audit}/{Entity}/{id}` for one, each entry as its reader may see it (docs/prototype-api.md).
   */
  audit?: string;
  /**
   * Where the prototype API manages the people of its own sign-in, for a role of point 6 that manages
   * people (`Role.managesPeople`): `GET {accounts}`, `POST {accounts}` (an invitation),
   * `PATCH {accounts}/{id}` and `POST {accounts}/{id}/sign-out` (docs/prototype-api.md).
   */
  accounts?: string;
}

/** Paths relative to the base: who the credentials are, a fresh token, and signing out. */
export interface PrototypeAuth {
  session: string;
  refresh?: string;
  signOut: string;
  /**
   * With the prototype API's own passwords: `POST {passwordReset}` sends a one-use link to reset one by
   * email, and `POST {password}` sets a password with a link's token (a reset or an invitation).
   */
  passwordReset?: string;
  password?: string;
}

export const SESSION_PATH = '/auth/session';
export const REFRESH_PATH = '/auth/refresh';
export const SIGN_OUT_PATH = '/auth/sign-out';
export const SIGN_IN_PATH = '/auth/sign-in';
export const PASSWORD_RESET_PATH = '/auth/password-reset';
export const PASSWORD_PATH = '/auth/password';
/** The prototype API's management of people (point 6's `managesPeople`); `/_people` names them. */
export const ACCOUNTS_PATH = '/_accounts';
/** The audit trail's name for entries about people: no entity of a specification starts with `_`. */
export const PERSON_AUDIT_ENTITY = '_person';
/**
 * The client's page that sets a password from an emailed link's token (an invitation or a reset): the
 * server builds its links to it, and the client's router serves it.
 */
export const PASSWORD_PAGE_PATH = '/_/password';
/** The prototype API's transition history (point 4); the underscore keeps it clear of call paths. */
export const HISTORY_PATH = '/_history';
/** The prototype API's CSV import (docs/prototype-api.md), beside the history and clear of call paths. */
export const IMPORT_PATH = '/_import';
/** The prototype API's names of referenced records and of people (docs/prototype-api.md). */
export const NAMES_PATH = '/_names';
export const PEOPLE_PATH = '/_people';
/** The prototype API's dashboard figures of point 2, computed in SQL (docs/prototype-api.md). */
export const FIGURES_PATH = '/_figures';
/** The prototype API's live updates: server-sent events of changes, for every node on one database. */
export const EVENTS_PATH = '/_events';
/** The prototype API's audit trail: every write, who made it and through which call, field by field. */
export const AUDIT_PATH = '/_audit';

/**
 * The calls the prototype API serves: those of `describeApi`, and when point 6 names a sign-in its own
 * session calls, plus a conventional password sign-in call if point 7 names none (password sign-in needs
 * one, and the prototype API documents the one it serves rather than leaving the client without). When
 * point 4 is shown, also where it answers the history of transitions.
 *
 * @example
 * ```ts
 * prototypeApi(shop).auth; // { session: '/auth/session', refresh: '/auth/refresh', signOut: '/auth/sign-out' }
 * prototypeApi(shop).history; // '/_history'
 * ```
 */
export function prototypeApi(model: Model): ApiDescription {
  const api = {
    ...withSession(model, describeApi(model)),
    csv: true as const,
    import: IMPORT_PATH,
    names: NAMES_PATH,
    people: PEOPLE_PATH,
    events: EVENTS_PATH,
    audit: AUDIT_PATH,
    idempotency: true as const,
    ...(hasFigures(model) ? { figures: FIGURES_PATH } : {}),
    ...(keepsPasswords(model) && model.roles.shown && model.roles.roles.some((role) => role.managesPeople)
      ? { accounts: ACCOUNTS_PATH }
      : {}),
  };
  return keepsHistory(model) ? { ...api, history: HISTORY_PATH } : api;
}

/** Whether a dashboard of point 2 has figures, which the prototype API then answers. */
function hasFigures(model: Model): boolean {
  return (
    model.screens.shown && model.screens.items.some((s) => s.kind === 'dashboard' && s.figures.length > 0)
  );
}

/**
 * Where the prototype API serves its calls: the path point 7's Base URL names (`/api/v1`), else `/api`.
 * A full URL names a server of its own, which the prototype stands in for at `/api`.
 */
export function apiBase(model: Model): string {
  const base = model.calls.shown ? model.calls.baseUrl : undefined;
  if (typeof base !== 'string' || !/^\/(?!\/)/.test(base)) return API_BASE;
  const trimmed = base.replace(/\/+$/, '');
  return trimmed === '' ? API_BASE : trimmed;
}

/**
 * Whether the prototype API keeps people's passwords itself (password or basic sign-in): it can then
 * invite them and reset their passwords by email.
 */
export function keepsPasswords(model: Model): boolean {
  return model.roles.shown && (model.roles.signIn.kind === 'password' || model.roles.signIn.kind === 'basic');
}

/** Whether point 4 is shown with a machine, whose transitions the prototype API then records. */
export function keepsHistory(model: Model): boolean {
  return model.states.shown && model.states.machines.length > 0;
}

function withSession(model: Model, api: ApiDescription): ApiDescription {
  const signIn = model.roles.shown ? model.roles.signIn : undefined;
  if (!signIn || signIn.kind === 'none') return api;
  const needsCall = signIn.kind === 'password' && !api.calls.some((call) => call.purpose === 'sign-in');
  const calls: Call[] = needsCall
    ? [
        ...api.calls,
        {
          name: 'signIn',
          method: 'POST',
          path: SIGN_IN_PATH,
          purpose: 'sign-in',
          parameters: [],
          filters: [],
        },
      ]
    : api.calls;
  return {
    ...api,
    calls,
    auth: {
      session: SESSION_PATH,
      ...(signIn.kind === 'password' ? { refresh: REFRESH_PATH } : {}),
      signOut: SIGN_OUT_PATH,
      ...(keepsPasswords(model) ? { passwordReset: PASSWORD_RESET_PATH, password: PASSWORD_PATH } : {}),
    },
  };
}

/**
 * @example
 * ```ts
 * describeApi(model).calls.map((call) => `${call.method} ${call.path}`);
 * // ['GET /orders', 'GET /orders/{id}', 'POST /orders', 'PATCH /orders/{id}', 'DELETE /orders/{id}', ...]
 * ```
 */
export function describeApi(model: Model): ApiDescription {
  const base = apiBase(model);
  if (model.calls.shown) return { base, conventional: false, calls: model.calls.items };
  const entities = model.entities.shown ? model.entities.items.filter((entity) => !entity.embedded) : [];
  return {
    base,
    conventional: true,
    calls: entities.flatMap((entity) => conventionalCalls(model, entity)),
  };
}

/** `Order` -> `orders`, `OrderLine` -> `order-lines`: the resource segment of conventional paths. */
export function resourceSegment(entity: Entity): string {
  const name = entity.plural ?? `${entity.name}s`;
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[\s_]+/g, '-')
    .toLowerCase();
}

function conventionalCalls(model: Model, entity: Entity): Call[] {
  const collection = `/${resourceSegment(entity)}`;
  const item = `${collection}/{id}`;
  const base = { entity: entity.name, parameters: [], filters: [] as FilterParam[] };
  const idParameter = [{ name: 'id', in: 'path' as const, required: true, type: { kind: 'text' as const } }];
  const { sort, filters } = listCapabilities(model, entity);
  const calls: Call[] = [
    {
      ...base,
      name: `list${entity.name}`,
      method: 'GET',
      path: collection,
      purpose: 'list',
      response: { shape: 'envelope', entity: entity.name, items: 'items', total: 'total' },
      pagination: { style: 'page', pageParam: 'page', sizeParam: 'limit' },
      ...(sort.length ? { sort: { param: 'sort', fields: sort, style: 'field,-field' as const } } : {}),
      filters: filters.map((field) => ({ field, param: field, op: 'eq' as const })),
    },
    {
      ...base,
      name: `get${entity.name}`,
      method: 'GET',
      path: item,
      purpose: 'get',
      parameters: idParameter,
      response: { shape: 'one', entity: entity.name },
    },
    {
      ...base,
      name: `create${entity.name}`,
      method: 'POST',
      path: collection,
      purpose: 'create',
      body: { entity: entity.name, encoding: 'json' },
      response: { shape: 'one', entity: entity.name },
    },
    {
      ...base,
      name: `update${entity.name}`,
      method: 'PATCH',
      path: item,
      purpose: 'update',
      parameters: idParameter,
      body: { entity: entity.name, encoding: 'json' },
      response: { shape: 'one', entity: entity.name },
    },
    {
      ...base,
      name: `delete${entity.name}`,
      method: 'DELETE',
      path: item,
      purpose: 'delete',
      parameters: idParameter,
    },
  ];
  if (model.states.shown) {
    for (const machine of model.states.machines.filter((m) => m.entity === entity.name)) {
      for (const transition of machine.transitions) {
        calls.push({
          ...base,
          name: conventionalTransitionCall(entity.name, transition),
          method: 'POST',
          path: `${item}/${transition.name}`,
          purpose: 'transition',
          parameters: idParameter,
          response: { shape: 'one', entity: entity.name },
        });
      }
    }
  }
  return calls;
}

/**
 * The fields a conventional list call sorts and filters on: those the list screens of point 2 name.
 * Without screens, every scalar field, since a conventional API that could not sort would be no use.
 */
function listCapabilities(model: Model, entity: Entity): { sort: string[]; filters: string[] } {
  if (model.screens.shown) {
    const lists = model.screens.items.filter(
      (screen) => screen.kind === 'list' && screen.entity === entity.name,
    );
    const sort = new Set<string>();
    const filters = new Set<string>();
    for (const screen of lists) {
      if (screen.kind !== 'list') continue;
      for (const key of screen.sort) sort.add(key.field);
      for (const field of screen.filters) filters.add(field);
    }
    return { sort: [...sort], filters: [...filters] };
  }
  const scalar = entity.fields
    .filter((field) => !['object', 'list', 'file', 'markdown'].includes(field.kind))
    .map((field) => field.name);
  return { sort: scalar, filters: scalar };
}

/** The calls as `/spec.json` sends them: without the list when it is the model's own point 7. */
export type ApiWire = Omit<ApiDescription, 'calls'> & { calls?: Call[] };

/**
 * What `/spec.json` holds. The calls of point 7 are in the model already; sending them a second time in
 * `api` would grow GitHub's model by a third (1,223 calls), which every page load would download and
 * parse. Only conventional calls, which the model does not hold, travel in `api.calls`.
 *
 * @example
 * ```ts
 * specPayload(model, describeApi(model)); // { model, api: { base: '/api', conventional: false } }
 * ```
 */
export function specPayload(model: Model, api: ApiDescription): { model: Model; api: ApiWire } {
  const own = model.calls.shown ? model.calls.items : [];
  const extra = api.conventional || api.calls.length !== own.length;
  if (extra) return { model, api };
  // Everything but the calls, whatever the description holds, so that no new member is left behind.
  const { calls: _own, ...rest } = api;
  return { model, api: rest };
}

/** The calls a client makes, from the payload: those `api` lists, else the model's own. */
export function apiOf(model: Model, wire: ApiWire): ApiDescription {
  return { ...wire, calls: wire.calls ?? (model.calls.shown ? model.calls.items : []) };
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

/**
 * The transition each transition call takes, by call name: the call a transition names, or with
 * conventional calls the one `conventionalTransitionCall` names it by. A transition whose call the API
 * does not serve is absent.
 */
export function transitionsByCall(
  model: Model,
  calls: readonly Call[],
  conventional: boolean,
): Map<string, { machine: StateMachine; transition: Transition }> {
  const map = new Map<string, { machine: StateMachine; transition: Transition }>();
  if (!model.states.shown) return map;
  for (const machine of model.states.machines) {
    for (const step of machine.transitions) {
      const name = conventional ? conventionalTransitionCall(machine.entity, step) : step.call;
      if (name && calls.some((call) => call.name === name)) map.set(name, { machine, transition: step });
    }
  }
  return map;
}

/** The most records a list call answers at once: its own `maxSize`, else the documented default. */
export function listMaxSize(model: Model, call: Call): number {
  const pagination = call.pagination;
  const amount = pagination && 'maxSize' in pagination ? resolveAmount(model, pagination.maxSize) : undefined;
  return typeof amount?.value === 'number' && amount.value > 0 ? amount.value : DEFAULT_MAX_PAGE_SIZE;
}

/** A list's page when none is asked for: its list screen's page size (a number or a constant), else 25. */
export function listDefaultPageSize(model: Model, entity: Entity): number {
  if (model.screens.shown) {
    for (const screen of model.screens.items) {
      if (screen.kind !== 'list' || screen.entity !== entity.name) continue;
      const size = resolveAmount(model, screen.pageSize)?.value;
      if (typeof size === 'number') return size;
    }
  }
  return DEFAULT_PAGE_SIZE;
}
