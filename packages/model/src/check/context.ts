import { didYouMean } from '../authoring/suggest';
import {
  checkExpression,
  type ExpressionEnvironment,
  type ExpressionScope,
  expressionEnvironment,
  fixedConversionFailure,
  SCOPE_VARIABLES,
  type ScopeVariable,
} from '../cel';
import { exhaustiveSwitchError } from '../exhaustive';
import type { Issue, IssueCode, PathSegment, Severity } from '../issues';
import {
  type Call,
  type Constant,
  type Entity,
  FIELD_KINDS,
  type Field,
  type FieldKind,
  type Model,
  POINT_KEYS,
  POINT_NAMES,
  type PointKey,
  type Role,
  type Screen,
} from '../model';

/** An issue, and for an error inside a CEL expression the character offset within that expression. */
export interface CheckedIssue {
  issue: Issue;
  /** Offset inside the string at `issue.path`, for `SourceDocument.locateInString`. */
  offset?: number;
  /**
   * The field a reference that did not resolve names, as `Entity.field`: when the reader could not read
   * that field, the issue follows from the reader's and is folded into it (see `loadSpec`). For a
   * reference into a point not shown, `point:` and the point (`point:entities`): when that point is
   * missing, not said to be not shown, the issue follows from the missing point's.
   */
  about?: string;
}

// What the checks of every point share: the context they report into, references by name (with "did
// you mean"), CEL checks, and readers that take any value without trusting it.

// ------------------------------------------------------------------------------------------ context

export interface Context {
  model: Model;
  out: CheckedIssue[];
  /** Each point's named items (first of a duplicate wins), or undefined when the point is not shown. */
  screens: Map<string, Screen> | undefined;
  entities: Map<string, Entity> | undefined;
  roles: Map<string, Role> | undefined;
  calls: Map<string, Call> | undefined;
  constants: Map<string, Constant> | undefined;
  /** Each entity's fields by name, built once per check: constraints and screens look fields up often. */
  fieldMaps: Map<Entity, Map<string, Field>>;
}

export function createContext(model: Model): Context {
  const root: Record<string, unknown> = isRecord(model) ? model : {};
  const rolesPoint = shown(root.roles);
  return {
    model: (isRecord(model) ? model : {}) as Model,
    out: [],
    screens: byName<Screen>(shownList(root.screens, 'items')),
    entities: byName<Entity>(shownList(root.entities, 'items')),
    roles: rolesPoint ? byName<Role>(list(rolesPoint.roles)) : undefined,
    calls: byName<Call>(shownList(root.calls, 'items')),
    constants: byName<Constant>(shownList(root.constants, 'items')),
    fieldMaps: new Map(),
  };
}

export function byName<T>(items: unknown[] | undefined): Map<string, T> | undefined {
  if (items === undefined) return undefined;
  const map = new Map<string, T>();
  for (const item of items) {
    const name = isRecord(item) ? text(item.name) : undefined;
    if (name !== undefined && !map.has(name)) map.set(name, item as T);
  }
  return map;
}

export interface ReportOptions {
  severity?: Severity;
  hint?: string | undefined;
  offset?: number | undefined;
  /** The field a failed reference names, as `Entity.field` (see `CheckedIssue.about`). */
  about?: string | undefined;
}

export function report(
  context: Context,
  code: IssueCode,
  path: PathSegment[],
  message: string,
  options: ReportOptions = {},
): void {
  // Messages are built from owners written mid-sentence ("the guard of transition ..."); start them upper-case.
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  const issue: Issue = { code, severity: options.severity ?? 'error', message: sentence, path };
  if (options.hint !== undefined) issue.hint = options.hint;
  const checked: CheckedIssue = { issue };
  if (options.offset !== undefined) checked.offset = options.offset;
  if (options.about !== undefined) checked.about = options.about;
  context.out.push(checked);
}

// ------------------------------------------------------------------------------------------ references

export type Target = 'screen' | 'entity' | 'role' | 'call' | 'constant';

export const TARGET_POINT: Record<Target, PointKey> = {
  screen: 'screens',
  entity: 'entities',
  role: 'roles',
  call: 'calls',
  constant: 'constants',
};

export function targetItems(context: Context, target: Target): Map<string, unknown> | undefined {
  switch (target) {
    case 'screen':
      return context.screens;
    case 'entity':
      return context.entities;
    case 'role':
      return context.roles;
    case 'call':
      return context.calls;
    case 'constant':
      return context.constants;
    default:
      return exhaustiveSwitchError(target);
  }
}

/**
 * Resolves a name into a point, reporting a miss (with "did you mean") or a reference into a point that
 * is not shown. Returns the item, or undefined when it does not resolve or the name is not text.
 */
export function refer<T>(
  context: Context,
  target: Target,
  name: unknown,
  path: PathSegment[],
  owner: string,
  candidates?: readonly string[],
): T | undefined {
  if (typeof name !== 'string') return undefined;
  const items = targetItems(context, target);
  const point = TARGET_POINT[target];
  if (items === undefined) {
    report(
      context,
      'not-shown-reference',
      path,
      `${owner} names ${target} "${name}", but ${pointLabel(point)} is not shown. ` +
        `Write ${pointNumber(point)} with ${target} "${name}", or remove the reference.`,
      { about: `point:${point}` },
    );
    return undefined;
  }
  const found = items.get(name);
  if (found !== undefined) return found as T;
  report(
    context,
    'unknown-reference',
    path,
    `${owner} names ${target} "${name}", which is not defined in ${pointLabel(point)}. ` +
      `Define it there or correct the name.`,
    { hint: didYouMean(name, candidates ?? [...items.keys()]) },
  );
  return undefined;
}

export function referField(
  context: Context,
  entity: Entity | undefined,
  name: unknown,
  path: PathSegment[],
  owner: string,
): Field | undefined {
  if (entity === undefined || typeof name !== 'string') return undefined;
  const fields = fieldsOf(context, entity);
  const found = fields.get(name);
  if (found !== undefined) return found;
  report(
    context,
    'unknown-reference',
    path,
    `${owner} names field "${name}", which entity "${entity.name}" (point 3) does not have. ` +
      `Add the field to "${entity.name}" or correct the name.`,
    { hint: didYouMean(name, [...fields.keys()]), about: `${entity.name}.${name}` },
  );
  return undefined;
}

/**
 * Resolves `field.sub.leaf` below an entity, through object fields (and lists of objects) into their
 * embedded entities. Reports the first segment that does not resolve; stops quietly when an object's
 * entity is itself unknown (that is reported at the field).
 */
export function referFieldPath(
  context: Context,
  entity: Entity | undefined,
  segments: readonly string[],
  path: PathSegment[],
  owner: string,
): Field | undefined {
  let current = entity;
  let field: Field | undefined;
  for (const [index, segment] of segments.entries()) {
    field = referField(context, current, segment, path, owner);
    if (field === undefined) return undefined;
    if (index === segments.length - 1) return field;
    const inner = innermostType(field);
    const kind = kindOf(inner);
    if (kind !== 'object') {
      report(
        context,
        'kind-mismatch',
        path,
        `${owner} goes through "${segments.slice(0, index + 1).join('.')}", which is a ${describeKind(field)} ` +
          `field, not an object. Only object fields have fields of their own.`,
      );
      return undefined;
    }
    current = context.entities?.get(text((inner as { entity?: unknown }).entity) ?? '');
    if (current === undefined) return undefined;
  }
  return field;
}

export function fieldsOf(context: Context, entity: Entity): Map<string, Field> {
  const known = context.fieldMaps.get(entity);
  if (known !== undefined) return known;
  const map = new Map<string, Field>();
  for (const field of list(entity.fields)) {
    const name = isRecord(field) ? text(field.name) : undefined;
    if (name !== undefined && !map.has(name)) map.set(name, field as Field);
  }
  context.fieldMaps.set(entity, map);
  return map;
}

// ------------------------------------------------------------------------------------------ CEL

/**
 * Checks one expression in its scope. `what` names it for the message ("The guard of transition ...").
 * With `expectBool`, the expression must give true or false (guards, rule checks, conditions).
 */
export function checkCel(
  context: Context,
  expression: unknown,
  path: PathSegment[],
  what: string,
  scope: ExpressionScope,
  expectBool = false,
): void {
  if (typeof expression !== 'string') return;
  let result: ReturnType<typeof checkExpression>;
  let constants: readonly string[] = [];
  let env: ExpressionEnvironment;
  try {
    env = expressionEnvironment(context.model, scope);
    constants = env.constants;
    result = checkExpression(expression, env);
  } catch {
    // checkExpression never throws; only building the environment from a broken model could. The broken
    // parts of the model are reported where they are, so the expression is not blamed for them.
    return;
  }
  if (result.ok) {
    if (expectBool && result.type !== 'bool' && result.type !== 'dyn') {
      report(
        context,
        'invalid-expression',
        path,
        `${what} gives a value of type ${result.type}, but it must be true or false. Turn it into a ` +
          'comparison or a condition.',
      );
    }
    // Typed right, yet it would throw at every evaluation: a refusal nobody could ever pass, or a 500.
    const fixed = fixedConversionFailure(expression, env);
    if (fixed) {
      report(
        context,
        'invalid-expression',
        path,
        `${what} cannot be evaluated: ${fixed.message}. A date is written 2026-10-31 as a constant of ` +
          'point 9 and compared as it is (`today <= CLOSES`); timestamp() takes a date, a time and an offset.',
        { offset: fixed.offset },
      );
    }
    return;
  }

  const variables = SCOPE_VARIABLES.filter((name) => scope.variables.includes(name));
  const unknownVariable = /^Unknown variable: (.+)$/.exec(result.message)?.[1];
  if (unknownVariable !== undefined && context.constants === undefined && !isScopeVariable(unknownVariable)) {
    report(
      context,
      'not-shown-reference',
      path,
      `${what} uses "${unknownVariable}", but point 9 (business constants and limits) is not shown, so it ` +
        `has no constants. Write point 9 with constant "${unknownVariable}", or remove it from the expression.`,
      { offset: result.offset, about: 'point:constants' },
    );
    return;
  }

  let advice = 'Correct the expression.';
  let hint: string | undefined;
  if (unknownVariable !== undefined) {
    advice = `Here an expression can use ${describeVariables(variables, constants.length > 0)}.`;
    hint = didYouMean(unknownVariable, [...variables, ...constants]);
  }
  // CEL never mixes int and double in arithmetic or equality, and whole numbers are ints: `record.total == 0`
  // fails on a money field. Authors meet this often enough to deserve the way out.
  if (/\b(?:double \S+ int|int \S+ double)\b/.test(result.message)) {
    hint = 'number and money fields hold doubles: write 0.0 rather than 0, or convert with double(...)';
  }
  const missingKey = /^No such key: (.+)$/.exec(result.message)?.[1];
  let about: string | undefined;
  if (missingKey !== undefined && scope.entity !== undefined) {
    const entity = context.entities?.get(scope.entity);
    if (entity !== undefined) {
      advice = `Use a field of "${entity.name}" (point 3).`;
      hint = didYouMean(missingKey, reachableFieldNames(context, entity));
      about = `${entity.name}.${missingKey}`;
    }
  }
  report(
    context,
    'invalid-expression',
    path,
    `${what} is not a valid expression: ${result.message}. ${advice}`,
    {
      hint,
      offset: result.offset,
      about,
    },
  );
}

export function isScopeVariable(name: string): name is ScopeVariable {
  return SCOPE_VARIABLES.some((variable) => variable === name);
}

export function describeVariables(variables: readonly ScopeVariable[], withConstants: boolean): string {
  const names = variables.map((name) => `"${name}"`);
  if (withConstants) names.push('the constants of point 9');
  if (names.length === 0) return 'only literals';
  if (names.length === 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Field names of an entity and of the embedded entities below it, for "did you mean" on `a.b.c`. */
export function reachableFieldNames(context: Context, entity: Entity): string[] {
  const names = new Set<string>();
  const visit = (current: Entity, seen: Set<string>): void => {
    for (const [name, field] of fieldsOf(context, current)) {
      names.add(name);
      const inner = innermostType(field);
      const target = kindOf(inner) === 'object' ? text((inner as { entity?: unknown }).entity) : undefined;
      const next = target === undefined ? undefined : context.entities?.get(target);
      if (next !== undefined && !seen.has(next.name)) visit(next, new Set([...seen, next.name]));
    }
  };
  visit(entity, new Set([entity.name]));
  return [...names];
}

// ------------------------------------------------------------------------------------------ helpers

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isText(value: unknown): value is string {
  return typeof value === 'string';
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The point's content when it is shown; a point whose `shown` is anything but true shows nothing. */
export function shown(point: unknown): Record<string, unknown> | undefined {
  return isRecord(point) && point.shown === true ? point : undefined;
}

export function shownList(point: unknown, key: string): unknown[] | undefined {
  const content = shown(point);
  return content === undefined ? undefined : list(content[key]);
}

export function kindOf(type: unknown): FieldKind | undefined {
  if (!isRecord(type)) return undefined;
  return FIELD_KINDS.find((known) => known === type.kind);
}

/** The element type of a (nested) list, or the type itself. */
export function innermostType(type: unknown): unknown {
  let current = type;
  for (let depth = 0; depth < 16 && isRecord(current) && current.kind === 'list'; depth++)
    current = current.of;
  return current;
}

export function describeKind(field: unknown): string {
  const kind = kindOf(field);
  if (kind !== 'list') return kind ?? 'untyped';
  const inner = kindOf(innermostType(field));
  return inner === undefined ? 'list' : `list of ${inner}`;
}

export function pointNumber(point: PointKey): string {
  return `point ${POINT_KEYS.indexOf(point) + 1}`;
}

export function pointLabel(point: PointKey): string {
  return `${pointNumber(point)} (${POINT_NAMES[point]})`;
}

export function pointIndex(segment: PathSegment | undefined): number {
  const index = segment === undefined ? -1 : (POINT_KEYS as readonly PathSegment[]).indexOf(segment);
  return index === -1 ? POINT_KEYS.length : index;
}
