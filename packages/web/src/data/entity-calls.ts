import {
  type ApiDescription,
  type Call,
  type CallPurpose,
  conventionalTransitionCall,
  type Model,
} from '@ninefold/model';
import type { EntityCalls, PathValues } from './data-provider';
import { pathParameterNames } from './list-request';

type RecordPurpose = Exclude<keyof EntityCalls, 'transitions' | 'lists' | 'all'>;
const RECORD_PURPOSES: readonly RecordPurpose[] = ['list', 'get', 'create', 'update', 'delete'];

/**
 * The calls the specification gives an entity, one per purpose, and the call of each of its transitions
 * keyed by the transition's name (point 4). Both data providers answer `calls()` with this, so a screen
 * tested against the memory provider offers exactly the actions it offers against the real API.
 *
 * A transition's call is the one its `call` names; when the API is conventional (point 7 not shown), the
 * conventional `<transition><Entity>` call. A transition without a call has none here: the client cannot
 * take it, since the prototype API refuses state changes through updates.
 *
 * @example
 * ```ts
 * entityCalls(api, model, 'Order').transitions.place?.path; // '/orders/{id}/place'
 * ```
 */
export function entityCalls(api: ApiDescription, model: Model, entity: string): EntityCalls {
  const own = api.calls.filter((call) => call.entity === entity);
  const found: EntityCalls = {
    transitions: {},
    lists: own.filter((call) => call.purpose === 'list'),
    all: own,
  };
  const listPaths = new Set(found.lists.map((call) => trimSlash(call.path)));
  for (const purpose of RECORD_PURPOSES) {
    // The main call of a purpose is the one that needs the fewest parents (`/parts` before
    // `/suppliers/{id}/parts`, whichever the document lists first), then the first listed.
    let call: Call | undefined;
    for (const candidate of own) {
      if (candidate.purpose !== (purpose satisfies CallPurpose) || addressesCollection(candidate, listPaths))
        continue;
      if (call === undefined || parentCount(candidate) < parentCount(call)) call = candidate;
    }
    if (call) found[purpose] = call;
  }
  if (model.states.shown) {
    for (const machine of model.states.machines) {
      if (machine.entity !== entity) continue;
      for (const transition of machine.transitions) {
        const name = api.conventional ? conventionalTransitionCall(entity, transition) : transition.call;
        const call = name === undefined ? undefined : api.calls.find((candidate) => candidate.name === name);
        if (call) found.transitions[transition.name] = call;
      }
    }
  }
  return found;
}

/**
 * Whether a call meant for one record (read, update, delete) is at the path that lists the records: it
 * would change every record it matches (a bulk `PUT /suppliers/`), so it is never one record's call. A
 * call at a path of its own with no key (`PUT /settings`, a single record) is kept.
 */
function addressesCollection(call: Call, listPaths: ReadonlySet<string>): boolean {
  const keyed = call.purpose === 'get' || call.purpose === 'update' || call.purpose === 'delete';
  return keyed && listPaths.has(trimSlash(call.path));
}

/** The path parameters a call needs besides the record's own key. */
function parentCount(call: Call): number {
  const names = pathParameterNames(call.path).length;
  const keyed = call.purpose === 'get' || call.purpose === 'update' || call.purpose === 'delete';
  return keyed ? Math.max(0, names - 1) : names;
}

function trimSlash(path: string): string {
  return path.replace(/(?<=.)\/+$/, '');
}

/** Memoizes `entityCalls` per entity: the description and the model do not change while a client runs. */
export function entityCallsLookup(api: ApiDescription, model: Model): (entity: string) => EntityCalls {
  const cache = new Map<string, EntityCalls>();
  return (entity) => {
    let calls = cache.get(entity);
    if (!calls) {
      calls = entityCalls(api, model, entity);
      cache.set(entity, calls);
    }
    return calls;
  };
}

/** The rejection for a method whose call the specification does not name: never a guessed URL. */
export class MissingCallError extends Error {
  override readonly name = 'MissingCallError';
  constructor(
    readonly entity: string,
    readonly purpose: string,
  ) {
    super(`The specification names no ${purpose} call for ${entity}; the client does not invent one.`);
  }
}

/**
 * The call for a purpose, or a rejection that says which is missing. With the parents at hand (`path`),
 * the first call of the purpose whose path they fill, the record's key aside: on
 * `/accounts/AC1/addresses/new` the nested create, not the entity's first one.
 *
 * @example
 * ```ts
 * requireCall(calls, 'Address', 'create', { accountSid: 'AC1' }).path; // '/accounts/{accountSid}/addresses'
 * ```
 */
export function requireCall(
  calls: EntityCalls,
  entity: string,
  purpose: RecordPurpose,
  path: PathValues = {},
): Call {
  const keyed = purpose !== 'list' && purpose !== 'create';
  // A call that needs no parents is never chosen this way: the entity's first call stays the default.
  const listPaths = new Set(calls.lists.map((call) => trimSlash(call.path)));
  const filled = calls.all.find((call) => {
    if (call.purpose !== purpose || addressesCollection(call, listPaths)) return false;
    const names = pathParameterNames(call.path);
    const parents = keyed ? names.slice(0, -1) : names;
    return parents.length > 0 && parents.every((name) => Object.hasOwn(path, name));
  });
  const call = filled ?? calls[purpose];
  if (!call) throw new MissingCallError(entity, purpose);
  return call;
}

/** The call of a transition, or a rejection that says which is missing. */
export function requireTransitionCall(calls: EntityCalls, entity: string, transition: string): Call {
  const call = Object.hasOwn(calls.transitions, transition) ? calls.transitions[transition] : undefined;
  if (!call) throw new MissingCallError(entity, `"${transition}" transition`);
  return call;
}

/** The list call a request names, or the entity's first; a name the entity does not have is refused. */
export function requireListCall(calls: EntityCalls, entity: string, name: string | undefined): Call {
  if (name === undefined) return requireCall(calls, entity, 'list');
  const call = calls.lists.find((candidate) => candidate.name === name);
  if (!call) throw new MissingCallError(entity, `"${name}" list`);
  return call;
}
