// Reads, which `--read-only` keeps: who may list and read what (point 6: roles, rows, fields), the shape
// of each answer (point 7), and the limits on a page (point 9).
import {
  checkAction,
  type Entity,
  type JsonValue,
  listMaxSize,
  recordAsSeen,
  resolveAmount,
} from '@ninefold/model';
import { itemsOf } from './records';
import type { Actor, VerifyRun } from './run';

type Values = Record<string, JsonValue>;

/** What each actor's first page of an entity held, for the checks that follow. */
export type Samples = Map<Actor, Values[]>;

export async function checkReads(run: VerifyRun, entity: Entity): Promise<Samples> {
  const samples: Samples = new Map();
  const list = run.callFor(entity.name, 'list');
  if (!list) {
    run.notChecked('calls', `${entity.name}: its list`, 'the specification names no list call for it');
    return samples;
  }
  for (const actor of run.actors) {
    const sent = await run.send(actor, 'GET', list.path);
    const allowed = checkAction(run.model, actor.principal, entity.name, 'read').allowed;
    if (!allowed) {
      const status = run.refusalStatus(actor, entity.name, 'read');
      run.expect('roles', `${actor.label} may not list ${plural(entity)}`, sent, {
        status,
        words: `${status}: the role has no grant to read ${plural(entity)}`,
        problem: { status, code: status === 401 ? 'NOT_SIGNED_IN' : 'FORBIDDEN', entity: entity.name },
      });
      continue;
    }
    if (
      !run.expect('roles', `${actor.label} may list ${plural(entity)}`, sent, {
        status: 200,
        words: '200 and a page of records',
      })
    ) {
      continue;
    }
    const items = itemsOf(sent.answer.json, list);
    samples.set(actor, items);
    checkShape(run, entity, actor, sent, items, list.response?.shape ?? 'array', list.response);
    checkRows(run, entity, actor, sent, items);
    checkFields(run, entity, actor, sent, items);
  }
  await checkOne(run, entity, samples);
  await checkLimits(run, entity, samples);
  return samples;
}

/** Point 7: the answer is the shape the list call says, each item a record of the entity. */
function checkShape(
  run: VerifyRun,
  entity: Entity,
  actor: Actor,
  sent: Awaited<ReturnType<VerifyRun['send']>>,
  items: Values[],
  shape: string,
  response: { items?: string; total?: string } | undefined,
): void {
  const body = sent.answer.json;
  const problems: string[] = [];
  if (shape === 'envelope') {
    const envelope = body as Record<string, unknown> | undefined;
    if (!envelope || typeof envelope !== 'object' || !Array.isArray(envelope[response?.items ?? 'items'])) {
      problems.push(`no "${response?.items ?? 'items'}" array`);
    }
    if (response?.total && typeof envelope?.[response.total] !== 'number')
      problems.push(`no number "${response.total}"`);
  } else if (!Array.isArray(body)) problems.push('not an array');
  const known = new Set(entity.fields.map((field) => field.name));
  for (const item of items) {
    const unknown = Object.keys(item).filter((name) => !known.has(name));
    if (unknown.length) problems.push(`a record has fields point 3 does not name: ${unknown.join(', ')}`);
    if (item[entity.key ?? 'id'] === undefined) problems.push(`a record has no key "${entity.key ?? 'id'}"`);
    if (problems.length) break;
  }
  run.add({
    point: 'calls',
    check: `the list of ${plural(entity)} answers ${actor.label} as its call says (${shape})`,
    outcome: problems.length ? 'disagrees' : 'agrees',
    request: sent.request,
    expected: `a ${shape} of ${entity.name} records`,
    received: { status: sent.answer.status },
    ...(problems.length ? { note: problems.join('; ') } : {}),
  });
}

/** Point 6: every listed record is one the role's grant lets it read (its condition holds). */
function checkRows(
  run: VerifyRun,
  entity: Entity,
  actor: Actor,
  sent: Awaited<ReturnType<VerifyRun['send']>>,
  items: Values[],
): void {
  const grantCondition = run.model.roles.shown
    ? run.model.roles.grants.find((g) => g.role === actor.role && g.entity === entity.name)?.where
    : undefined;
  if (grantCondition === undefined) return;
  const outside = items.filter(
    (item) => !checkAction(run.model, actor.principal, entity.name, 'read', item).allowed,
  );
  run.add({
    point: 'roles',
    check: `${actor.label} is listed only ${plural(entity)} where ${grantCondition}`,
    outcome: outside.length ? 'disagrees' : 'agrees',
    request: sent.request,
    expected: `only records where ${grantCondition}`,
    received: { status: sent.answer.status },
    ...(outside.length
      ? {
          note: `${outside.length} of ${items.length} records do not meet it (keys ${outside
            .map((r) => r[entity.key ?? 'id'])
            .slice(0, 5)
            .join(', ')})`,
        }
      : {}),
  });
}

/** Point 6: no answer carries a field hidden from the role. */
function checkFields(
  run: VerifyRun,
  entity: Entity,
  actor: Actor,
  sent: Awaited<ReturnType<VerifyRun['send']>>,
  items: Values[],
): void {
  const grant = run.model.roles.shown
    ? run.model.roles.grants.find((g) => g.role === actor.role && g.entity === entity.name)
    : undefined;
  if (!grant || (grant.hidden.length === 0 && !grant.hiddenWhile)) return;
  const leaked = new Set<string>();
  for (const item of items) {
    const seen = recordAsSeen(run.model, actor.principal, entity.name, item);
    for (const name of Object.keys(item)) if (!(name in seen)) leaked.add(name);
  }
  const hidden = [...grant.hidden, ...(grant.hiddenWhile?.fields ?? [])];
  run.add({
    point: 'roles',
    check: `${actor.label} is never sent ${hidden.join(', ')} of ${plural(entity)}`,
    outcome: leaked.size ? 'disagrees' : 'agrees',
    request: sent.request,
    expected: `no ${hidden.join(', ')}${grant.hiddenWhile ? ` while ${grant.hiddenWhile.when}` : ''}`,
    received: { status: sent.answer.status },
    ...(leaked.size ? { note: `sent ${[...leaked].join(', ')}` } : {}),
  });
}

/** Point 7 and 6: one record, read by its key, is the record the list gave, hidden fields left out. */
async function checkOne(run: VerifyRun, entity: Entity, samples: Samples): Promise<void> {
  const get = run.callFor(entity.name, 'get');
  if (!get) return;
  for (const [actor, items] of samples) {
    const first = items[0];
    const key = first?.[entity.key ?? 'id'];
    if (key === undefined || key === null) continue;
    const sent = await run.send(actor, 'GET', run.pathFor(get, String(key)));
    if (
      !run.expect('calls', `${actor.label} reads one ${entity.label ?? entity.name} by its key`, sent, {
        status: 200,
        words: '200 and the record',
      })
    ) {
      continue;
    }
    const record = sent.answer.json as Values;
    const seen = recordAsSeen(run.model, actor.principal, entity.name, record);
    const leaked = Object.keys(record).filter((name) => !(name in seen));
    if (leaked.length) {
      run.add({
        point: 'roles',
        check: `${actor.label} is never sent a hidden field of a ${entity.label ?? entity.name}`,
        outcome: 'disagrees',
        request: sent.request,
        expected: 'no hidden field',
        received: { status: sent.answer.status },
        note: `sent ${leaked.join(', ')}`,
      });
    }
  }
}

/** Point 9: a page may hold at most the call's largest size, and no more is taken. */
async function checkLimits(run: VerifyRun, entity: Entity, samples: Samples): Promise<void> {
  const list = run.callFor(entity.name, 'list');
  const pagination = list?.pagination;
  const actor = [...samples.keys()][0];
  if (!list || !pagination || !actor) return;
  const sizeParam =
    pagination.style === 'page' || pagination.style === 'cursor'
      ? pagination.sizeParam
      : pagination.style === 'offset'
        ? pagination.limitParam
        : pagination.style === 'link-header'
          ? (pagination.sizeParam ?? 'per_page')
          : undefined;
  if (!sizeParam) return;
  const max = listMaxSize(run.model, list);
  const amount = 'maxSize' in pagination ? pagination.maxSize : undefined;
  const why =
    amount?.kind === 'constant'
      ? `${amount.name} = ${resolveAmount(run.model, amount)?.value}`
      : `the largest page, ${max}`;
  const over = await run.send(actor, 'GET', `${list.path}?${sizeParam}=${max + 1}`);
  run.expect('constants', `a page of ${plural(entity)} holds at most ${why}: ${max + 1} is refused`, over, {
    status: 400,
    words: `400: ${sizeParam} may be at most ${max}`,
  });
  const at = await run.send(actor, 'GET', `${list.path}?${sizeParam}=${max}`);
  if (
    run.expect('constants', `a page of ${plural(entity)} of ${max} (${why}) is taken`, at, {
      status: 200,
      words: '200',
    })
  ) {
    const count = itemsOf(at.answer.json, list).length;
    if (count > max) {
      run.add({
        point: 'constants',
        check: `a page of ${plural(entity)} never holds more than ${max}`,
        outcome: 'disagrees',
        request: at.request,
        expected: `at most ${max} records`,
        received: { status: at.answer.status },
        note: `${count} records`,
      });
    }
  }
}

export function plural(entity: Entity): string {
  return (entity.plural ?? `${entity.label ?? entity.name}s`).toLowerCase();
}
