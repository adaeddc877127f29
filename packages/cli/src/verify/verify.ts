// `ninefold verify`: does a running API keep the specification's rules? Entity by entity, what each
// role may read and write (point 6), the constraints and rules (5), the transitions (4), the refusals'
// codes (8), the limits (9) and the shapes of the calls (7). See docs/verify.md.
import { type Entity, type Model, prototypeApi } from '@ninefold/model';
import { type AsOption, signInActors } from './actors';
import { checkReads } from './check-reads';
import { checkStates } from './check-states';
import { checkValidation } from './check-validation';
import { checkWrites } from './check-writes';
import { ApiClient, StormError } from './http';
import { removeCreated } from './records';
import type { VerifyReport } from './results';
import { VerifyRun } from './run';

export interface VerifyOptions {
  /** The API's base URL: a call's path follows it. */
  api: string;
  as: readonly AsOption[];
  readOnly?: boolean;
  /** Requests a second, at most (default 50). */
  rate?: number;
  /** Seeds the records verify writes (default: the time, so that two runs do not clash). */
  seed?: number;
  now?: Date;
  fetch?: typeof fetch;
  /** Called with each entity as its checks start, for progress. */
  onEntity?: (entity: Entity) => void;
}

export const DEFAULT_RATE = 50;

export async function verify(model: Model, options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const client = new ApiClient({
    base: options.api,
    rate: options.rate ?? DEFAULT_RATE,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const calls = prototypeApi(model).calls;
  const report = (run: VerifyRun | undefined, leftBehind: string[], stopped?: string): VerifyReport => ({
    api: options.api,
    results: run?.results ?? [],
    requests: client.sent,
    leftBehind,
    ...(stopped ? { stopped } : {}),
    seconds: (performance.now() - started) / 1000,
  });
  let signedIn: Awaited<ReturnType<typeof signInActors>>;
  try {
    signedIn = await signInActors(model, calls, client, options.as);
  } catch (error) {
    return report(undefined, [], reason(error, options.api));
  }
  const run = new VerifyRun(model, calls, client, signedIn.actors, {
    readOnly: options.readOnly === true,
    now: options.now ?? new Date(),
    seed: options.seed ?? Date.now() % 1_000_000,
  });
  for (const role of signedIn.missing) {
    run.notChecked('roles', `what the role ${role} may do`, `no --as ${role}=… was given`);
  }
  let stopped: string | undefined;
  const entities = inDependencyOrder(model);
  if (entities.length === 0) {
    // Nothing is invented: with no entity shown there is no record to ask about, and the report says so.
    run.notChecked(
      'calls',
      'every call',
      'point 3 shows no entity that is stored, so there is nothing to ask the API',
    );
  }
  try {
    for (const entity of entities) {
      options.onEntity?.(entity);
      await checkReads(run, entity);
      if (run.options.readOnly) continue;
      const made = await checkWrites(run, entity);
      await checkValidation(run, entity, made);
      await checkStates(run, entity, made);
    }
  } catch (error) {
    stopped = reason(error, options.api);
  }
  // Even after a storm: what verify made is removed if the server lets it, and otherwise listed.
  let leftBehind: string[] = [];
  try {
    leftBehind = await removeCreated(run);
  } catch (error) {
    leftBehind = run.created.map((made) => `${made.entity.name} ${made.key}`);
    stopped ??= reason(error, options.api);
  }
  return report(run, leftBehind, stopped);
}

function reason(error: unknown, api: string): string {
  if (error instanceof StormError) return error.message;
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND') return `${api} could not be reached (${cause})`;
  return (error as Error).message;
}

/** Stored entities, each after those its references point at, so that records to point at exist first. */
function inDependencyOrder(model: Model): Entity[] {
  if (!model.entities.shown) return [];
  const stored = model.entities.items.filter((entity) => !entity.embedded);
  const byName = new Map(model.entities.items.map((entity) => [entity.name, entity]));
  const targets = (entity: Entity, seen = new Set<string>()): string[] => {
    if (seen.has(entity.name)) return [];
    seen.add(entity.name);
    return entity.fields.flatMap((field) => {
      let type = field as { kind: string; entity?: string; of?: unknown };
      while (type.kind === 'list') type = type.of as typeof type;
      if (type.kind === 'reference' && type.entity) return [type.entity];
      const inner = type.kind === 'object' && type.entity ? byName.get(type.entity) : undefined;
      return inner ? targets(inner, seen) : [];
    });
  };
  const ordered: Entity[] = [];
  const visit = (entity: Entity, path: Set<string>) => {
    if (ordered.includes(entity) || path.has(entity.name)) return;
    path.add(entity.name);
    for (const name of targets(entity)) {
      const target = byName.get(name);
      if (target && !target.embedded) visit(target, path);
    }
    ordered.push(entity);
  };
  for (const entity of stored) visit(entity, new Set());
  return ordered;
}
