// Point 5: each constraint and each rule, met and broken. A broken value is sent only when the
// specification's own check (`validateRecord`) says that this constraint or rule, and nothing else,
// refuses it: the oracle is the specification, not the server.
import {
  type Entity,
  type FieldConstraints,
  fieldAccess,
  type JsonValue,
  type Model,
  type Rule,
  ruleReadsRecords,
  validateRecord,
} from '@ninefold/model';
import { brokenBound, brokenPattern, readsThrough, variationsOf } from './breaking';
import { plural } from './check-reads';
import { keepIfMade, type Made } from './check-writes';
import { writableFields } from './records';
import type { VerifyRun } from './run';

type Values = Record<string, JsonValue>;

export async function checkValidation(run: VerifyRun, entity: Entity, made: Made | undefined): Promise<void> {
  if (!run.model.validation.shown) return;
  const constraints = run.model.validation.fields.filter(
    (c) => c.entity === entity.name && c.field.length === 1,
  );
  const rules = run.model.validation.rules.filter((rule) => rule.entity === entity.name);
  if (constraints.length + rules.length === 0) return;
  if (!made) {
    const why = run.options.readOnly
      ? '--read-only sends no write'
      : `no ${entity.label ?? entity.name} could be made to check them on`;
    run.notChecked('validation', `the rules of ${plural(entity)}`, why);
    return;
  }
  const base = made.bodies[1] ?? made.bodies[0];
  if (!base) return;
  for (const constraint of constraints) await checkConstraint(run, entity, made, base, constraint);
  for (const rule of rules) await checkRule(run, entity, made, base, rule);
}

async function checkConstraint(
  run: VerifyRun,
  entity: Entity,
  made: Made,
  base: Values,
  c: FieldConstraints,
): Promise<void> {
  const name = c.field[0] as string;
  const field = entity.fields.find((f) => f.name === name);
  const access = fieldAccess(run.model, made.maker.principal, entity.name);
  if (
    !field ||
    !writableFields(run, entity).has(name) ||
    access.hidden.has(name) ||
    access.readOnly.has(name)
  )
    return;
  const label = `${entity.label ?? entity.name}.${name}`;
  const broken: Array<{ what: string; body: Values }> = [];
  if (c.required) {
    const { [name]: _gone, ...rest } = base;
    broken.push({ what: `${label} is required`, body: rest });
  }
  for (const bound of ['min', 'max'] as const) {
    const amount = c[bound];
    const value = amount ? brokenBound(run.model, field, bound, amount) : undefined;
    if (value !== undefined)
      broken.push({
        what: `${label} ${bound === 'min' ? 'at least' : 'at most'} ${describe(amount)}`,
        body: { ...base, [name]: value },
      });
  }
  if (c.pattern !== undefined && (field.kind === 'text' || field.kind === 'markdown')) {
    const value = brokenPattern(c.pattern);
    if (value !== undefined)
      broken.push({ what: `${label} matches ${c.pattern}`, body: { ...base, [name]: value } });
  }
  for (const { what, body } of broken) {
    // The specification must itself refuse the value at this field, or verify would be testing its own guess.
    const local = validateRecord(run.model, entity.name, body, {
      mode: 'create',
      now: run.options.now,
      user: made.maker.principal.user ?? {},
    });
    if (local.ok || !local.errors.some((e) => e.pointer === `/${name}`)) {
      run.notChecked('validation', what, 'no value was found that only this constraint refuses');
      continue;
    }
    await sendBroken(run, entity, made, body, what, `/${name}`, 'VALIDATION_FAILED');
  }
  if (c.unique && made.record[name] !== undefined && made.record[name] !== null) {
    await sendBroken(
      run,
      entity,
      made,
      { ...base, [name]: made.record[name] as JsonValue },
      `${label} is unique`,
      `/${name}`,
      'VALIDATION_FAILED',
    );
  }
}

async function checkRule(
  run: VerifyRun,
  entity: Entity,
  made: Made,
  base: Values,
  rule: Rule,
): Promise<void> {
  const what = `rule "${rule.name ?? rule.message}"`;
  if (!rule.on.includes('create')) {
    run.notChecked(
      'validation',
      what,
      'it applies on changes and transitions only; verify breaks rules on create',
    );
    return;
  }
  const readsRecords = ruleReadsRecords(run.model, rule);
  const others = withoutRule(run.model, rule);
  const user = made.maker.principal.user ?? {};
  const options = { mode: 'create' as const, now: run.options.now, user };
  let found: Values | undefined;
  for (const body of variationsOf(run.model, entity, base, readsThrough(entity, rule.check))) {
    const full = validateRecord(run.model, entity.name, body, options);
    if (full.ok || !validateRecord(others, entity.name, body, options).ok) continue;
    found = body;
    break;
  }
  if (!found) {
    run.notChecked(
      'validation',
      what,
      readsRecords
        ? 'it reads other records, which only the API can count; verify breaks rules it can decide itself'
        : 'no change of the fields it reads was found that breaks it and nothing else',
    );
    return;
  }
  await sendBroken(
    run,
    entity,
    made,
    found,
    what,
    rule.field ? `/${rule.field}` : undefined,
    rule.code ?? 'VALIDATION_FAILED',
  );
}

/** Sends a create the specification refuses, and checks the refusal: 422, at the field, with its code. */
async function sendBroken(
  run: VerifyRun,
  entity: Entity,
  made: Made,
  body: Values,
  what: string,
  pointer: string | undefined,
  code: string,
): Promise<void> {
  const create = run.callFor(entity.name, 'create');
  if (!create) return;
  const sent = await run.send(made.maker, 'POST', create.path, body);
  keepIfMade(run, entity, made.maker, sent.answer);
  const ok = run.expect('validation', `${what}: broken, it is refused`, sent, {
    status: (_status, answer) => run.refusesValues(answer, entity.name),
    words: `422 (or a refusal point 8 reads as one to fix)${pointer ? ` with an error at ${pointer}` : ''}`,
    problem: {
      status: 422,
      code,
      entity: entity.name,
      ...(pointer ? { fieldErrors: [{ pointer, ...(code === 'VALIDATION_FAILED' ? {} : { code }) }] } : {}),
    },
  });
  if (!ok) return;
  // Refused, and by this constraint or rule: another refusal (a rule that reads other records, say)
  // says nothing of whether the server keeps this one.
  const { fieldErrors } = run.refusalOf(sent.answer, entity.name);
  const byIt = fieldErrors.some(
    (e) =>
      (pointer === undefined || e.pointer === pointer) && (code === 'VALIDATION_FAILED' || e.code === code),
  );
  run.add({
    point: 'validation',
    check: `${what}: the refusal is this one${pointer ? `, at ${pointer}` : ''}`,
    outcome: byIt ? 'agrees' : 'disagrees',
    request: sent.request,
    expected: `an error${pointer ? ` whose pointer is ${pointer}` : ''}${code === 'VALIDATION_FAILED' ? '' : ` with the code ${code}`}`,
    received: { status: sent.answer.status, body: sent.answer.json },
  });
}

function withoutRule(model: Model, rule: Rule): Model {
  if (!model.validation.shown) return model;
  return {
    ...model,
    validation: { ...model.validation, rules: model.validation.rules.filter((r) => r !== rule) },
  };
}

function describe(amount: FieldConstraints['min']): string {
  if (!amount) return '';
  return amount.kind === 'constant' ? amount.name : String(amount.value);
}
