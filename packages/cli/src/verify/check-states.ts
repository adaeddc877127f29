// Point 4: each transition from each state verify can reach, allowed and refused. What the answer must
// be is the specification's write plan (`planTransition`), asked of the record as the API gave it. A
// state is reached by steps the plan allows and that change no other record but verify's own.
import {
  type Entity,
  type JsonValue,
  planTransition,
  type StateMachine,
  type Transition,
  transitionReadsRecords,
  transitionsByCall,
  validateRecord,
} from '@ninefold/model';
import { readsThrough, variationsOf } from './breaking';
import { plural } from './check-reads';
import type { Made } from './check-writes';
import { createRecord, fetchRecord, pointsOnlyAtOwn, removeOne, validBodies } from './records';
import type { Actor, VerifyRun } from './run';

type Values = Record<string, JsonValue>;
type Calls = Map<string, { method: string; path: string }>;

export async function checkStates(run: VerifyRun, entity: Entity, made: Made | undefined): Promise<void> {
  if (!run.model.states.shown) return;
  for (const machine of run.model.states.machines.filter((m) => m.entity === entity.name)) {
    if (!made) {
      const why = run.options.readOnly
        ? '--read-only sends no write'
        : `no ${entity.label ?? entity.name} could be made to take them`;
      run.notChecked('states', `the transitions of ${plural(entity)}`, why);
      continue;
    }
    const calls = callsOf(run, machine);
    const paths = reachable(run, entity, machine, made, calls);
    for (const state of machine.states) {
      const path = paths.get(state.name);
      if (!path) {
        run.notChecked(
          'states',
          `transitions from ${state.name}`,
          'verify cannot reach it: every way there is refused for its records, reads other records, or changes records verify did not make',
        );
        continue;
      }
      await fromState(run, entity, machine, made, calls, state.name, path);
    }
    await guards(run, entity, machine, made, calls);
  }
}

/** The call that takes each transition, by transition name. */
function callsOf(run: VerifyRun, machine: StateMachine): Calls {
  const out: Calls = new Map();
  for (const [name, { transition }] of transitionsByCall(run.model, run.calls, !run.model.calls.shown)) {
    const call = run.calls.find((c) => c.name === name);
    if (call && machine.transitions.includes(transition)) out.set(transition.name, call);
  }
  return out;
}

/** What the specification says of an actor taking a step of this record. */
function plan(run: VerifyRun, machine: StateMachine, step: Transition, record: Values, actor: Actor) {
  return planTransition(run.model, machine, step, record, {
    principal: actor.principal,
    now: run.options.now,
  });
}

/** An actor the specification lets take the step, unless the step reads other records (the API decides). */
function takerOf(run: VerifyRun, machine: StateMachine, step: Transition, record: Values): Actor | undefined {
  if (transitionReadsRecords(run.model, machine, step)) return undefined;
  return run.actors.find((actor) => plan(run, machine, step, record, actor).ok);
}

/** For each state, the steps that lead there from the initial one. */
function reachable(
  run: VerifyRun,
  entity: Entity,
  machine: StateMachine,
  made: Made,
  calls: Calls,
): Map<string, Transition[]> {
  const paths = new Map<string, Transition[]>([[machine.initial, []]]);
  const queue = [machine.initial];
  while (queue.length) {
    const from = queue.shift() as string;
    const record = { ...made.record, [machine.field]: from };
    for (const step of machine.transitions) {
      if (!step.from.includes(from) || paths.has(step.to) || !calls.has(step.name)) continue;
      // A step that changes other records is taken only when those are verify's own, removed after.
      if (step.updates?.length && !pointsOnlyAtOwn(run, entity, made.record)) continue;
      if (!takerOf(run, machine, step, record)) continue;
      paths.set(step.to, [...(paths.get(from) ?? []), step]);
      queue.push(step.to);
    }
  }
  return paths;
}

/** A fresh record walked to `state`, every step it may not take from there refused, then removed. */
async function fromState(
  run: VerifyRun,
  entity: Entity,
  machine: StateMachine,
  made: Made,
  calls: Calls,
  state: string,
  path: Transition[],
): Promise<void> {
  const fresh = await createRecord(run, entity, made.maker, made.bodies.slice(2));
  if (!fresh || !('key' in fresh)) {
    run.notChecked(
      'states',
      `transitions from ${state}`,
      `a new ${entity.label ?? entity.name} could not be made`,
    );
    return;
  }
  const own = run.created.find((c) => c.entity === entity && c.key === fresh.key);
  try {
    const record = await walk(run, entity, machine, calls, state, path, fresh);
    if (record) await refusals(run, entity, machine, calls, state, fresh.key, record);
  } finally {
    // Removed at once: a record left in a later state may weigh on the next (a customer's open orders).
    if (own) await removeOne(run, own);
  }
}

/** Takes the steps of `path`, each as the specification allows it; the record at the end, or undefined. */
async function walk(
  run: VerifyRun,
  entity: Entity,
  machine: StateMachine,
  calls: Calls,
  state: string,
  path: Transition[],
  fresh: { key: string; record: Values },
): Promise<Values | undefined> {
  let record = fresh.record;
  for (const step of path) {
    const taker = takerOf(run, machine, step, record);
    const call = calls.get(step.name);
    if (!taker || !call) {
      run.notChecked(
        'states',
        `transitions from ${state}`,
        `the specification refuses ${step.name} for the record verify made`,
      );
      return undefined;
    }
    const sent = await run.send(taker, call.method, run.pathFor(call as never, fresh.key));
    if (step.updates?.length && sent.answer.status === 409 && codeOf(sent.answer.json) === 'UPDATE_REFUSED') {
      // Point 4 allows it: a record the step changes (a stock, say) cannot take the change now.
      run.notChecked(
        'states',
        `transitions from ${state}`,
        `${step.name} was refused: a record it changes could not take the change (UPDATE_REFUSED)`,
      );
      return undefined;
    }
    const words = `${step.name} takes a ${entity.label ?? entity.name} from ${record[machine.field]} to ${step.to}`;
    if (!run.expect('states', words, sent, { status: 200, words: `200 and the record in ${step.to}` }))
      return undefined;
    record = (sent.answer.json as Values) ?? record;
  }
  return record;
}

/** Every step the specification refuses from here: from the wrong state (once), and for each role it refuses. */
async function refusals(
  run: VerifyRun,
  entity: Entity,
  machine: StateMachine,
  calls: Calls,
  state: string,
  key: string,
  record: Values,
): Promise<void> {
  for (const step of machine.transitions) {
    const call = calls.get(step.name);
    if (!call) continue;
    const fromHere = step.from.includes(state);
    // Off this state, one actor the step is open to says it; from it, every actor it is closed to.
    const actors = fromHere
      ? run.actors
      : run.actors
          .filter((actor) => step.roles === undefined || step.roles.includes(actor.role ?? ''))
          .slice(0, 1);
    for (const actor of actors) {
      const verdict = plan(run, machine, step, record, actor);
      if (verdict.ok) continue;
      const { status, code, message } = verdict.refusal;
      const sent = await run.send(actor, call.method, run.pathFor(call as never, key));
      const check = fromHere
        ? `${actor.label} may not ${step.name} a ${entity.label ?? entity.name} in ${state}`
        : `${step.name} is refused from ${state}`;
      const point =
        status === 409 ? 'states' : status === 422 ? 'validation' : status === 500 ? 'states' : 'roles';
      run.expect(point, check, sent, {
        status,
        words: `${status} ${code}: ${message}`,
        problem: { status, code, entity: entity.name },
      });
      // The step went through after all: the record moved on, and what follows would not be about this state.
      if (sent.answer.status >= 200 && sent.answer.status < 300) return;
    }
  }
}

/** Each guard, broken: a record the guard refuses is refused with the guard's own code. */
async function guards(
  run: VerifyRun,
  entity: Entity,
  machine: StateMachine,
  made: Made,
  calls: Calls,
): Promise<void> {
  for (const step of machine.transitions.filter((t) => t.guard !== undefined)) {
    const call = calls.get(step.name);
    if (!call) continue;
    if (!step.from.includes(machine.initial)) {
      run.notChecked(
        'states',
        `the guard of ${step.name}`,
        `verify breaks guards of steps from ${machine.initial}, the state a new record is in`,
      );
      continue;
    }
    const body = await guardBreaker(run, entity, machine, step, made);
    if (!body) {
      run.notChecked(
        'states',
        `the guard of ${step.name}`,
        'no record the specification accepts was found that the guard refuses',
      );
      continue;
    }
    const fresh = await createRecord(run, entity, made.maker, [body]);
    if (!fresh || !('key' in fresh)) continue;
    const record = (await fetchRecord(run, entity, fresh.key, made.maker))?.record ?? fresh.record;
    await refusals(run, entity, machine, new Map([[step.name, call]]), machine.initial, fresh.key, record);
  }
}

/** A new record the specification accepts, from the seed's candidates or their variations, that the guard refuses. */
async function guardBreaker(
  run: VerifyRun,
  entity: Entity,
  machine: StateMachine,
  step: Transition,
  made: Made,
): Promise<Values | undefined> {
  const refuses = (body: Values) => {
    const record = { ...body, [machine.field]: machine.initial };
    return run.actors.some((actor) => {
      const verdict = plan(run, machine, step, record, actor);
      return !verdict.ok && verdict.refusal.status === 409 && verdict.refusal.code !== 'ILLEGAL_TRANSITION';
    });
  };
  const bodies = made.bodies.length > 3 ? made.bodies.slice(3) : await validBodies(run, entity, made.maker);
  const direct = bodies.find(refuses);
  if (direct) return direct;
  const user = made.maker.principal.user ?? {};
  for (const base of bodies.slice(0, 2)) {
    for (const body of variationsOf(run.model, entity, base, readsThrough(entity, step.guard ?? ''))) {
      if (!refuses(body)) continue;
      if (validateRecord(run.model, entity.name, body, { mode: 'create', now: run.options.now, user }).ok)
        return body;
    }
  }
  return undefined;
}

function codeOf(body: unknown): string | undefined {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
