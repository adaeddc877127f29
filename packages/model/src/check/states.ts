import { didYouMean } from '../authoring/suggest';
import type { ExpressionScope } from '../cel';
import type { PathSegment } from '../issues';
import type { Entity } from '../model';
import { checkUpdateExpressions, parseUpdate, updateEnvironment } from '../rules/updates';
import {
  type Context,
  checkCel,
  describeKind,
  isRecord,
  kindOf,
  list,
  refer,
  referField,
  report,
  shownList,
  text,
} from './context';
import { checkCode } from './validation';

// The checks of point 4 (states and transitions), changes of other records included. check/index.ts runs them in point order over one shared Context.

export function checkStates(context: Context): void {
  const machines = shownList(context.model.states, 'machines');
  if (!machines) return;
  const seen = new Set<string>();
  for (const machine of machines) {
    if (!isRecord(machine)) continue;
    const entityName = text(machine.entity);
    const fieldName = text(machine.field);
    if (entityName === undefined || fieldName === undefined) continue;
    const key = `${entityName}.${fieldName}`;
    const base: PathSegment[] = ['states', key];
    const owner = `state machine "${key}" (point 4)`;
    if (seen.has(key)) {
      report(context, 'duplicate-name', base, `${owner} is defined twice. Merge the two into one.`);
      continue;
    }
    seen.add(key);

    const entity = refer<Entity>(context, 'entity', entityName, base, owner);
    const field = referField(context, entity, fieldName, base, owner);
    let enumValues: string[] | undefined;
    if (field !== undefined) {
      if (field.kind === 'enum') {
        enumValues = list(field.values)
          .map((value) => (isRecord(value) ? text(value.value) : undefined))
          .filter((value) => value !== undefined);
      } else {
        report(
          context,
          'kind-mismatch',
          base,
          `${owner} keeps its state in field "${key}", which is a ${describeKind(field)} field. A state ` +
            'field must be an enum whose values are the states: make it one, or name the enum field.',
        );
      }
    }

    const declared: string[] = [];
    for (const state of list(machine.states)) {
      const stateName = isRecord(state) ? text(state.name) : undefined;
      if (stateName === undefined) continue;
      const path = [...base, 'states', stateName];
      if (declared.includes(stateName)) {
        report(
          context,
          'duplicate-name',
          path,
          `State "${stateName}" of ${owner} is listed twice. Remove one.`,
        );
        continue;
      }
      declared.push(stateName);
      if (enumValues !== undefined && !enumValues.includes(stateName)) {
        report(
          context,
          'unknown-reference',
          path,
          `State "${stateName}" of ${owner} is not a value of the enum field "${key}". Add it to the ` +
            "field's values in point 3, or correct the name.",
          { hint: didYouMean(stateName, enumValues) },
        );
      }
    }
    // Without a list of states the machine's states are the enum's values.
    const states = declared.length > 0 ? declared : (enumValues ?? []);
    const known = states.length > 0;
    const referState = (name: unknown, path: PathSegment[], what: string): void => {
      if (!known || typeof name !== 'string' || states.includes(name)) return;
      report(
        context,
        'unknown-reference',
        path,
        `${what} names state "${name}", which is not a state of "${key}". Use one of: ${states.join(', ')}.`,
        { hint: didYouMean(name, states) },
      );
    };
    referState(machine.initial, [...base, 'initial'], `the initial state of ${owner}`);

    const transitionNames = new Set<string>();
    const edges: Array<[string, string]> = [];
    for (const transition of list(machine.transitions)) {
      if (!isRecord(transition)) continue;
      const name = text(transition.name);
      if (name === undefined) continue;
      const tBase: PathSegment[] = [...base, 'transitions', name];
      const tOwner = `transition "${name}" of "${key}" (point 4)`;
      if (transitionNames.has(name)) {
        report(context, 'duplicate-name', tBase, `${tOwner} is defined twice. Rename one of them.`);
        continue;
      }
      transitionNames.add(name);
      const to = text(transition.to);
      for (const from of list(transition.from)) {
        referState(from, [...tBase, 'from'], tOwner);
        if (typeof from === 'string' && to !== undefined) edges.push([from, to]);
      }
      referState(transition.to, [...tBase, 'to'], tOwner);
      for (const role of list(transition.roles)) {
        const found = refer<Record<string, unknown>>(context, 'role', role, [...tBase, 'roles'], tOwner);
        if (isRecord(found) && found.signedOut === true)
          report(
            context,
            'invalid-value',
            [...tBase, 'roles'],
            `${tOwner} names role "${String(role)}", which is for people who have not signed in: they only ` +
              `read, and take no step. Remove it, or name a role people sign in for.`,
          );
      }
      refer(context, 'call', transition.call, [...tBase, 'call'], tOwner);
      const scope: ExpressionScope = { entity: entityName, variables: ['record', 'user', 'now', 'today'] };
      checkCel(context, transition.guard, [...tBase, 'guard'], `the guard of ${tOwner}`, scope, true);
      checkCode(context, transition.guardCode, [...tBase, 'guardCode'], `the guard of ${tOwner}`);
      for (const assignment of list(transition.set)) {
        if (!isRecord(assignment)) continue;
        const target = text(assignment.field);
        if (target === undefined) continue;
        const path = [...tBase, 'set', target];
        referField(context, entity, target, path, tOwner);
        checkCel(context, assignment.expression, path, `the value that ${tOwner} sets on "${target}"`, scope);
      }
      list(transition.updates).forEach((statement, index) => {
        checkUpdate(context, statement, [...tBase, 'updates', index], tOwner, entityName);
      });
    }

    const initial = text(machine.initial);
    if (initial !== undefined && states.includes(initial)) {
      const reached = new Set<string>([initial]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [from, to] of edges) {
          if (reached.has(from) && !reached.has(to)) {
            reached.add(to);
            grew = true;
          }
        }
      }
      for (const state of declared) {
        if (reached.has(state)) continue;
        report(
          context,
          'unreachable-state',
          [...base, 'states', state],
          `State "${state}" of ${owner} cannot be reached from the initial state "${initial}": no chain of ` +
            'transitions leads to it. Add a transition into it, or remove it.',
          { severity: 'warning' },
        );
      }
    }
  }
}

/**
 * A change of another record (`Product[l.product].stock -= l.quantity for l in record.lines`): it reads,
 * it names a keyed entity and one of its fields (a number to add to or take from), and its expressions
 * type-check over the transition's scope.
 */
export function checkUpdate(
  context: Context,
  statement: unknown,
  path: PathSegment[],
  owner: string,
  entityName: string | undefined,
): void {
  const parsed = parseUpdate(String(statement));
  if (!parsed.ok) {
    report(context, 'invalid-expression', path, `A change that ${owner} makes: ${parsed.message}.`);
    return;
  }
  const { update } = parsed;
  const target = refer<Entity>(context, 'entity', update.entity, path, `a change that ${owner} makes`);
  if (target === undefined) return;
  if (target.embedded === true || target.key === undefined) {
    report(
      context,
      'invalid-value',
      path,
      `${owner} changes "${update.entity}", which has no key of its own: only records with a key can be changed.`,
    );
    return;
  }
  const field = referField(context, target, update.field, path, `a change that ${owner} makes`);
  if (field === undefined) return;
  const kind = kindOf(field);
  if (update.op !== '=' && kind !== 'integer' && kind !== 'number' && kind !== 'money') {
    report(
      context,
      'kind-mismatch',
      path,
      `${owner} adds to or takes from "${update.entity}.${update.field}", which holds ${describeKind(field)}, not a number. Use "=" to set it.`,
    );
  }
  if (update.field === target.key || field.derived !== undefined) {
    report(
      context,
      'invalid-value',
      path,
      `${owner} changes "${update.entity}.${update.field}", which the API sets itself.`,
    );
  }
  if (entityName === undefined || !context.entities?.has(entityName)) return;
  const problem = checkUpdateExpressions(update, updateEnvironment(context.model, entityName));
  if (problem) {
    report(
      context,
      'invalid-expression',
      path,
      `The ${problem.part} of a change that ${owner} makes is not a valid expression: ${problem.message}.`,
    );
  }
}
