import {
  checkExpression,
  type ExpressionScope,
  expressionEnvironment,
  isTimeZone,
  SCOPE_VARIABLES,
  type ScopeVariable,
} from './cel';
import { countNeverPasses } from './cel-records';
import { exhaustiveSwitchError } from './exhaustive';
import type { Issue, IssueCode, PathSegment, Severity } from './issues';
import {
  type Call,
  type Constant,
  CRUD_ACTIONS,
  type Entity,
  FIELD_KINDS,
  type Field,
  type FieldKind,
  type Model,
  POINT_KEYS,
  POINT_NAMES,
  type PointKey,
  type Role,
  SCREEN_KINDS,
  type Screen,
  type ScreenKind,
  SIGN_IN_KINDS,
  type SignInKind,
  type StateMachine,
} from './model';
import { PROTOTYPE_CODES } from './rules/errors';
import { parseNumbering } from './rules/numbering';
import { checkUpdateExpressions, parseUpdate, updateEnvironment } from './rules/updates';
import { didYouMean } from './suggest';

// The semantic checks run on the normalized model, after a loader has checked the document's shape. The
// model may still be broken in any way (an OpenAPI import builds it directly, and tests feed it garbage),
// so every value is read as untrusted: the checks report what they can and never throw. Paths point into
// the authoring document (maps keyed by name), not into the model's arrays, so that the caller can turn
// them into file:line:column.

/** An issue, and for an error inside a CEL expression the character offset within that expression. */
export interface CheckedIssue {
  issue: Issue;
  /** Offset inside the string at `issue.path`, for `SourceDocument.locateInString`. */
  offset?: number;
}

/**
 * The semantic issues of a model: references that do not resolve (with "did you mean"), references into
 * points that are not shown, duplicate names, invalid or conflicting routes and call paths, state machines
 * that do not match their enum or have unreachable states, CEL expressions that do not check, invalid
 * patterns and constraints, and a catch-all error entry that hides the entries after it. Issues come in
 * point order (1 to 9) with paths into the authoring document and no `source`. Never throws.
 *
 * @example
 * ```ts
 * checkModel(model);
 * // [{ code: 'unknown-reference', severity: 'error', path: ['screens', 'orders', 'entity'],
 * //    message: 'Screen "orders" (point 2) names entity "Ordr", which is not defined in point 3 ...',
 * //    hint: 'did you mean "Order"?' }]
 * ```
 */
export function checkModel(model: Model): Issue[] {
  return checkModelWithOffsets(model).map((checked) => checked.issue);
}

/**
 * {@link checkModel}, keeping for each error inside a CEL expression its offset in the expression, so that
 * the caller can point at the very character with `locateInString(issue.path, offset)`.
 *
 * @example
 * ```ts
 * for (const { issue, offset } of checkModelWithOffsets(model)) {
 *   issue.source = offset === undefined ? doc.locate(issue.path) : doc.locateInString(issue.path, offset);
 * }
 * ```
 */
export function checkModelWithOffsets(model: Model): CheckedIssue[] {
  const context = createContext(model);
  // One step per point, in the points' order.
  const steps = [
    checkProduct,
    checkScreens,
    checkEntities,
    checkStates,
    checkValidation,
    checkRoles,
    checkCalls,
    checkErrors,
    checkConstants,
  ];
  for (const step of steps) step(context);
  // Each step reports under its own point, but keep the promise of point order even if one strays.
  return context.out
    .map((checked, order) => ({ checked, order, point: pointIndex(checked.issue.path[0]) }))
    .sort((a, b) => a.point - b.point || a.order - b.order)
    .map(({ checked }) => checked);
}

// ------------------------------------------------------------------------------------------ context

interface Context {
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

function createContext(model: Model): Context {
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

function byName<T>(items: unknown[] | undefined): Map<string, T> | undefined {
  if (items === undefined) return undefined;
  const map = new Map<string, T>();
  for (const item of items) {
    const name = isRecord(item) ? text(item.name) : undefined;
    if (name !== undefined && !map.has(name)) map.set(name, item as T);
  }
  return map;
}

interface ReportOptions {
  severity?: Severity;
  hint?: string | undefined;
  offset?: number | undefined;
}

function report(
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
  context.out.push(checked);
}

// ------------------------------------------------------------------------------------------ references

type Target = 'screen' | 'entity' | 'role' | 'call' | 'constant';

const TARGET_POINT: Record<Target, PointKey> = {
  screen: 'screens',
  entity: 'entities',
  role: 'roles',
  call: 'calls',
  constant: 'constants',
};

function targetItems(context: Context, target: Target): Map<string, unknown> | undefined {
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
function refer<T>(
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

function referField(
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
    { hint: didYouMean(name, [...fields.keys()]) },
  );
  return undefined;
}

/**
 * Resolves `field.sub.leaf` below an entity, through object fields (and lists of objects) into their
 * embedded entities. Reports the first segment that does not resolve; stops quietly when an object's
 * entity is itself unknown (that is reported at the field).
 */
function referFieldPath(
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

function fieldsOf(context: Context, entity: Entity): Map<string, Field> {
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

// ------------------------------------------------------------------------------------------ 1. product

function checkProduct(context: Context): void {
  const product = shown(context.model.product);
  if (!product) return;
  refer(context, 'screen', product.home, ['product', 'home'], 'the home screen of point 1 (product)');
  const zone = text(product.timeZone);
  if (zone !== undefined && !isTimeZone(zone)) {
    report(
      context,
      'invalid-value',
      ['product', 'timeZone'],
      `The time zone "${zone}" of point 1 is not an IANA time zone name. Write one such as Europe/Amsterdam or UTC.`,
    );
  }
}

/** A numbered field: read-only text, with a pattern that has one {seq}. */
function checkNumbering(
  context: Context,
  field: { numbering?: unknown; kind?: unknown; readOnly?: unknown },
  path: PathSegment[],
  owner: string,
): void {
  const parsed = parseNumbering(String(field.numbering));
  if (!parsed.ok) {
    report(context, 'invalid-value', path, `The numbering of ${owner}: ${parsed.message}.`);
    return;
  }
  if (field.kind !== 'text' || field.readOnly !== true) {
    report(
      context,
      'invalid-value',
      path,
      `${owner} is numbered by the API, so it must be a read-only text field. ` +
        `Make its kind text and add "Read only: yes".`,
    );
  }
}

// ------------------------------------------------------------------------------------------ 2. screens

function checkScreens(context: Context): void {
  const screens = shownList(context.model.screens, 'items');
  if (!screens) return;
  const seen = new Set<string>();
  const routes = new Map<string, string>();
  for (const screen of screens) {
    if (!isRecord(screen)) continue;
    const name = text(screen.name);
    if (name === undefined) continue;
    const base: PathSegment[] = ['screens', name];
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        base,
        `Screen "${name}" is defined twice in point 2 (screens and routes). Rename one of them.`,
      );
      continue;
    }
    seen.add(name);
    const owner = `screen "${name}" (point 2)`;
    const kind = SCREEN_KINDS.find((known) => known === screen.kind);
    if (kind === undefined) {
      report(
        context,
        'invalid-value',
        [...base, 'kind'],
        `${owner} has kind "${String(screen.kind)}", which is not a screen kind. Use one of: ${SCREEN_KINDS.join(', ')}.`,
        { hint: typeof screen.kind === 'string' ? didYouMean(screen.kind, SCREEN_KINDS) : undefined },
      );
    } else {
      checkScreenOfKind(context, screen, kind, base, owner);
    }
    checkRoute(context, screen, kind, base, owner, routes);
    list(screen.roles).forEach((role, index) => {
      refer(context, 'role', role, [...base, 'roles', index], owner);
    });
  }
}

function checkScreenOfKind(
  context: Context,
  raw: Record<string, unknown>,
  kind: ScreenKind,
  base: PathSegment[],
  owner: string,
): void {
  switch (kind) {
    case 'list': {
      const entity = screenEntity(context, raw, base, owner, true);
      list(raw.columns).forEach((field, index) => {
        referField(context, entity, field, [...base, 'columns', index], owner);
      });
      list(raw.filters).forEach((field, index) => {
        referField(context, entity, field, [...base, 'filters', index], owner);
      });
      list(raw.sort).forEach((key, index) => {
        if (isRecord(key)) referField(context, entity, key.field, [...base, 'sort', index], owner);
      });
      checkAmount(context, raw.pageSize, [...base, 'pageSize'], `the page size of ${owner}`, 'number');
      return;
    }
    case 'detail':
    case 'create':
    case 'edit': {
      const entity = screenEntity(context, raw, base, owner, true);
      list(raw.fields).forEach((field, index) => {
        referField(context, entity, field, [...base, 'fields', index], owner);
      });
      return;
    }
    case 'dashboard': {
      const listScreens = [...(context.screens?.values() ?? [])]
        .filter((candidate) => candidate.kind === 'list')
        .map((candidate) => candidate.name);
      list(raw.tiles).forEach((tile, index) => {
        const path = [...base, 'tiles', index];
        const target = refer<Screen>(context, 'screen', tile, path, owner, listScreens);
        if (target !== undefined && target.kind !== 'list') {
          report(
            context,
            'kind-mismatch',
            path,
            `${owner} shows screen "${String(tile)}" as a tile, but it is a ${String(target.kind)} screen; ` +
              'a tile counts the records of a list screen. Name a list screen.',
            { hint: typeof tile === 'string' ? didYouMean(tile, listScreens) : undefined },
          );
        }
      });
      return;
    }
    case 'sign-in':
      return;
    case 'custom': {
      if (text(raw.component) === undefined || raw.component === '') {
        report(
          context,
          'missing-key',
          [...base, 'component'],
          `${owner} is a custom screen without a component. Name the registered component that renders it.`,
        );
      }
      screenEntity(context, raw, base, owner, false);
      return;
    }
    default:
      exhaustiveSwitchError(kind);
  }
}

function screenEntity(
  context: Context,
  screen: Record<string, unknown>,
  base: PathSegment[],
  owner: string,
  required: boolean,
): Entity | undefined {
  const path = [...base, 'entity'];
  if (screen.entity === undefined || screen.entity === '') {
    if (required) {
      report(
        context,
        'missing-key',
        path,
        `${owner} is a ${String(screen.kind)} screen without an entity. Name the entity (point 3) it shows.`,
      );
    }
    return undefined;
  }
  const entity = refer<Entity>(context, 'entity', screen.entity, path, owner);
  if (entity !== undefined && required && entity.embedded === true) {
    report(
      context,
      'kind-mismatch',
      path,
      `${owner} shows entity "${entity.name}", which is embedded in other records and has no screens of ` +
        'its own. Show the entity that contains it instead.',
    );
  }
  return entity;
}

const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ROUTE_LITERAL = /^[A-Za-z0-9._~!$&'()+,;=@%-]+$/;

function checkRoute(
  context: Context,
  screen: Record<string, unknown>,
  kind: ScreenKind | undefined,
  base: PathSegment[],
  owner: string,
  routes: Map<string, string>,
): void {
  const route = screen.route;
  const path = [...base, 'route'];
  if (typeof route !== 'string') return;
  const problem = routeProblem(route);
  if (problem !== undefined) {
    report(context, 'invalid-route', path, `${owner} has route "${route}", which ${problem}`);
    return;
  }
  const parameters =
    route === '/'
      ? []
      : route
          .slice(1)
          .split('/')
          .filter((s) => s.startsWith(':'));
  if ((kind === 'detail' || kind === 'edit') && parameters.length === 0) {
    report(
      context,
      'invalid-route',
      path,
      `${owner} is a ${kind} screen, but its route "${route}" has no parameter to say which record. ` +
        'Add one, e.g. "/orders/:id".',
    );
  }
  // React Router matches case-insensitively and by position, so parameter names and case do not matter.
  const shape =
    route === '/'
      ? '/'
      : `/${route
          .slice(1)
          .split('/')
          .map((segment) => (segment.startsWith(':') ? ':' : segment.toLowerCase()))
          .join('/')}`;
  const first = routes.get(shape);
  if (first !== undefined) {
    report(
      context,
      'conflicting-route',
      path,
      `${owner} has route "${route}", which matches the same addresses as the route of screen "${first}". ` +
        'Change one of the two routes.',
    );
  } else {
    const name = base[1];
    if (typeof name === 'string') routes.set(shape, name);
  }
}

function routeProblem(route: string): string | undefined {
  if (!route.startsWith('/')) return `does not start with "/". Write it as "/${route}".`;
  if (route === '/') return undefined;
  const names = new Set<string>();
  for (const segment of route.slice(1).split('/')) {
    if (segment === '') return 'has an empty segment (a doubled or trailing "/"). Remove it.';
    if (segment.startsWith(':')) {
      const name = segment.slice(1);
      if (!PARAMETER_NAME.test(name)) {
        return `has parameter "${segment}", whose name is not a plain name. Use letters, digits and _, e.g. ":orderId".`;
      }
      if (names.has(name)) return `has parameter ":${name}" twice. Give each parameter its own name.`;
      names.add(name);
      continue;
    }
    if (/^\{.*\}$/.test(segment)) {
      return `has segment "${segment}". Route parameters are written ":name", e.g. ":${segment.slice(1, -1)}".`;
    }
    if (!ROUTE_LITERAL.test(segment)) {
      return `has segment "${segment}", which is neither literal text nor a ":parameter". Remove the special characters.`;
    }
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------ 3. entities

function checkEntities(context: Context): void {
  const entities = shownList(context.model.entities, 'items');
  if (!entities) return;
  const seen = new Set<string>();
  for (const entity of entities) {
    if (!isRecord(entity)) continue;
    const name = text(entity.name);
    if (name === undefined) continue;
    const base: PathSegment[] = ['entities', name];
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        base,
        `Entity "${name}" is defined twice in point 3 (entities and fields). Rename one of them.`,
      );
      continue;
    }
    seen.add(name);
    const typed = entity as unknown as Entity;
    const owner = `entity "${name}" (point 3)`;
    referField(context, typed, entity.key, [...base, 'key'], `the key of ${owner}`);
    referField(context, typed, entity.display, [...base, 'display'], `the display field of ${owner}`);
    const fieldNames = new Set<string>();
    for (const field of list(entity.fields)) {
      if (!isRecord(field)) continue;
      const fieldName = text(field.name);
      if (fieldName === undefined) continue;
      const fieldBase: PathSegment[] = [...base, 'fields', fieldName];
      const fieldOwner = `field "${name}.${fieldName}" (point 3)`;
      if (fieldNames.has(fieldName)) {
        report(
          context,
          'duplicate-name',
          fieldBase,
          `${fieldOwner} is defined twice in entity "${name}". Rename one of them.`,
        );
        continue;
      }
      fieldNames.add(fieldName);
      checkFieldType(context, field, fieldBase, fieldOwner, 0, field.readOnly === true);
      // Most fields are not derived: their path and message are not built.
      if (field.derived !== undefined)
        checkCel(context, field.derived, [...fieldBase, 'derived'], `the derived value of ${fieldOwner}`, {
          entity: name,
          variables: ['record'],
        });
      if (field.numbering !== undefined)
        checkNumbering(context, field, [...fieldBase, 'numbering'], fieldOwner);
      if (field.setOnCreate !== undefined) {
        checkCel(
          context,
          field.setOnCreate,
          [...fieldBase, 'setOnCreate'],
          `the value set on create of ${fieldOwner}`,
          { entity: name, variables: ['user', 'now', 'today'] },
        );
        // A value the client could send and the server then overwrites would be lost without a word.
        if (field.readOnly !== true)
          report(
            context,
            'invalid-value',
            [...fieldBase, 'setOnCreate'],
            `${fieldOwner} is set on create by the API, so it must be read only. Add "Read only: yes".`,
          );
      }
    }
  }
}

function checkFieldType(
  context: Context,
  type: Record<string, unknown>,
  base: PathSegment[],
  owner: string,
  depth: number,
  readOnly: boolean,
): void {
  const kind = FIELD_KINDS.find((known) => known === type.kind);
  if (kind === undefined) {
    report(
      context,
      'invalid-value',
      [...base, 'kind'],
      `${owner} has kind "${String(type.kind)}", which is not a field kind. Use one of: ${FIELD_KINDS.join(', ')}.`,
      { hint: typeof type.kind === 'string' ? didYouMean(type.kind, FIELD_KINDS) : undefined },
    );
    return;
  }
  switch (kind) {
    case 'text':
    case 'number':
    case 'integer':
    case 'money':
    case 'boolean':
    case 'date':
    case 'datetime':
    case 'markdown':
    case 'file':
    case 'enum':
      return;
    case 'reference':
    case 'object': {
      const path = [...base, 'entity'];
      const target = refer<Entity>(context, 'entity', type.entity, path, owner);
      if (target === undefined) return;
      // A read-only object of a record's entity is that record as the API answers it (an imported
      // article's author); a writable one would be a second way to write another entity's records.
      if (kind === 'object' && target.embedded !== true && !readOnly) {
        report(
          context,
          'kind-mismatch',
          path,
          `${owner} holds an object of entity "${target.name}", which is not embedded. Mark "${target.name}" ` +
            'as embedded if it is a value stored inside records, make the field a reference, or make it ' +
            'read-only if the API answers the whole record here.',
          { severity: 'warning' },
        );
      }
      if (kind === 'reference' && target.embedded === true) {
        report(
          context,
          'kind-mismatch',
          path,
          `${owner} refers to entity "${target.name}", which is embedded and has no records of its own to ` +
            'refer to. Make the field an object, or make the entity not embedded.',
          { severity: 'warning' },
        );
      }
      return;
    }
    case 'list':
      // The model is plain JSON, so lists cannot nest forever; the bound only guards hand-made cycles.
      if (isRecord(type.of) && depth < 16)
        checkFieldType(context, type.of, [...base, 'of'], owner, depth + 1, readOnly);
      return;
    default:
      exhaustiveSwitchError(kind);
  }
}

// ------------------------------------------------------------------------------------------ 4. states

function checkStates(context: Context): void {
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
      for (const role of list(transition.roles)) refer(context, 'role', role, [...tBase, 'roles'], tOwner);
      refer(context, 'call', transition.call, [...tBase, 'call'], tOwner);
      const scope: ExpressionScope = { entity: entityName, variables: ['record', 'user', 'now', 'today'] };
      checkCel(context, transition.guard, [...tBase, 'guard'], `the guard of ${tOwner}`, scope, true);
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
function checkUpdate(
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
  const machine = { entity: entityName } as StateMachine;
  const problem = checkUpdateExpressions(update, updateEnvironment(context.model, machine));
  if (problem) {
    report(
      context,
      'invalid-expression',
      path,
      `The ${problem.part} of a change that ${owner} makes is not a valid expression: ${problem.message}.`,
    );
  }
}

// ------------------------------------------------------------------------------------------ 5. validation

const TEXT_KINDS: readonly FieldKind[] = ['text', 'markdown'];
const UNORDERED_KINDS: readonly FieldKind[] = ['boolean', 'enum', 'reference', 'object'];

function checkValidation(context: Context): void {
  const validation = shown(context.model.validation);
  if (!validation) return;
  const seen = new Set<string>();
  for (const constraints of list(validation.fields)) {
    if (!isRecord(constraints)) continue;
    const entityName = text(constraints.entity);
    const segments = list(constraints.field);
    if (entityName === undefined || segments.length === 0 || !segments.every(isText)) continue;
    const key = [entityName, ...segments].join('.');
    const base: PathSegment[] = ['validation', 'fields', key];
    const owner = `the constraints of "${key}" (point 5)`;
    if (seen.has(key)) {
      report(context, 'duplicate-name', base, `${owner} are given twice. Merge them into one entry.`);
      continue;
    }
    seen.add(key);
    const entity = refer<Entity>(context, 'entity', entityName, base, owner);
    const field = referFieldPath(context, entity, segments, base, owner);
    const kind = field === undefined ? undefined : kindOf(field);
    const together = list(constraints.uniqueWith);
    if (together.length > 0 && segments.length > 1) {
      report(
        context,
        'invalid-value',
        [...base, 'uniqueWith'],
        `${owner} are on a field inside an object; "unique with" holds only for fields of the record itself.`,
      );
    }
    for (const name of together) referField(context, entity, name, [...base, 'uniqueWith'], owner);

    const pattern = constraints.pattern;
    if (typeof pattern === 'string') {
      const problem = patternProblem(pattern);
      if (problem !== undefined) {
        report(
          context,
          'invalid-pattern',
          [...base, 'pattern'],
          `The pattern of "${key}" (point 5) is not a valid regular expression: ${problem}. ` +
            'Write an ECMAScript regular expression (it is used with the u flag).',
        );
      } else if (field !== undefined && kind !== undefined && !TEXT_KINDS.includes(kind)) {
        report(
          context,
          'kind-mismatch',
          [...base, 'pattern'],
          `The pattern of "${key}" (point 5) applies to text, but "${key}" is a ${describeKind(field)} field. ` +
            'Remove the pattern or use min and max.',
          { severity: 'warning' },
        );
      }
    }

    const want = amountWant(kind);
    for (const bound of ['min', 'max'] as const) {
      const amount = constraints[bound];
      if (amount === undefined) continue;
      const path = [...base, bound];
      if (field !== undefined && kind !== undefined && UNORDERED_KINDS.includes(kind)) {
        report(
          context,
          'kind-mismatch',
          path,
          `The ${bound} of "${key}" (point 5) has no meaning for a ${describeKind(field)} field. Remove it.`,
          { severity: 'warning' },
        );
        continue;
      }
      checkAmount(context, amount, path, `the ${bound} of "${key}" (point 5)`, want);
    }
    const min = numericAmount(context, constraints.min);
    const max = numericAmount(context, constraints.max);
    if (min !== undefined && max !== undefined && min > max) {
      report(
        context,
        'invalid-value',
        [...base, 'min'],
        `The min of "${key}" (point 5) is ${min}, more than its max ${max}, so no value can pass. ` +
          'Swap or correct them.',
      );
    }
  }

  const ruleNames = new Set<string>();
  list(validation.rules).forEach((rule, index) => {
    if (!isRecord(rule)) return;
    const base: PathSegment[] = ['validation', 'rules', index];
    const name = text(rule.name);
    const owner = name === undefined ? `rule ${index + 1} of point 5` : `rule "${name}" (point 5)`;
    if (name !== undefined) {
      if (ruleNames.has(name)) {
        report(
          context,
          'duplicate-name',
          [...base, 'name'],
          `${owner} is named twice in point 5. Rename one of the rules.`,
        );
      }
      ruleNames.add(name);
    }
    const entityName = text(rule.entity);
    const entity = refer<Entity>(context, 'entity', rule.entity, [...base, 'entity'], owner);
    // `lines.quantity`: a rule over every line, whose refusal lands on each line's quantity.
    if (typeof rule.field === 'string')
      referFieldPath(context, entity, rule.field.split('.'), [...base, 'field'], owner);
    const code = text(rule.code);
    // The code is matched against the catalogue's codes and sent as the problem's code: one spelling.
    if (code !== undefined && !RULE_CODE.test(code)) {
      report(
        context,
        'invalid-value',
        [...base, 'code'],
        `The code "${code}" of ${owner} is not written in SCREAMING_SNAKE like the codes of the error ` +
          `catalogue. Write it as ${screamingSnake(code) || 'CREDIT_LIMIT'}.`,
      );
    }
    const scope: ExpressionScope = { variables: ['record', 'old', 'user', 'now', 'today'] };
    if (entityName !== undefined) scope.entity = entityName;
    checkCel(context, rule.check, [...base, 'check'], `the check of ${owner}`, scope, true);
    if (typeof rule.check === 'string') {
      const never = countNeverPasses(expressionEnvironment(context.model, scope).cel, rule.check, (name) =>
        constantNumber(context.model, name),
      );
      if (never !== undefined) {
        report(context, 'invalid-value', [...base, 'check'], `${owner} refuses every record: ${never}.`, {
          severity: 'warning',
        });
      }
    }
  });
}

/** `CREDIT_LIMIT`, `OUT_OF_STOCK`, `E42`: upper-case words joined by single underscores. */
const RULE_CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** `creditLimit` -> `CREDIT_LIMIT`, `out-of-stock` -> `OUT_OF_STOCK`: the spelling the check suggests. */
function screamingSnake(code: string): string {
  return code
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^[^A-Za-z]+|_+$/g, '')
    .toUpperCase();
}

function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^Invalid regular expression: /, '');
  }
}

type AmountWant = 'number' | 'date' | 'any';

function amountWant(kind: FieldKind | undefined): AmountWant {
  if (kind === undefined) return 'any';
  return kind === 'date' || kind === 'datetime' ? 'date' : 'number';
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function isDateString(value: unknown): boolean {
  return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/** An Amount: a constant must exist (point 9 shown) and hold a number, or a date for date fields. */
function checkAmount(
  context: Context,
  amount: unknown,
  path: PathSegment[],
  owner: string,
  want: AmountWant,
) {
  if (!isRecord(amount)) return;
  if (amount.kind === 'date' && want === 'number') {
    report(
      context,
      'kind-mismatch',
      path,
      `${owner} is the date ${String(amount.value)}, but a number is expected here. Give a number.`,
    );
    return;
  }
  if (amount.kind !== 'constant') return;
  const constant = refer<Constant>(context, 'constant', amount.name, path, owner);
  if (constant === undefined) return;
  const value = constant.value;
  const fits =
    want === 'number'
      ? typeof value === 'number'
      : want === 'date'
        ? isDateString(value)
        : typeof value === 'number' || isDateString(value);
  if (fits) return;
  const expected = want === 'number' ? 'a number' : want === 'date' ? 'a date' : 'a number or a date';
  report(
    context,
    'kind-mismatch',
    path,
    `${owner} uses constant "${constant.name}", whose value ${JSON.stringify(value) ?? String(value)} is not ` +
      `${expected}. Give the constant ${expected} in point 9, or use another one.`,
  );
}

function numericAmount(context: Context, amount: unknown): number | undefined {
  if (!isRecord(amount)) return undefined;
  if (amount.kind === 'number') return typeof amount.value === 'number' ? amount.value : undefined;
  if (amount.kind === 'constant' && typeof amount.name === 'string') {
    const value = context.constants?.get(amount.name)?.value;
    return typeof value === 'number' ? value : undefined;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------ 6. roles

function checkRoles(context: Context): void {
  const roles = shown(context.model.roles);
  if (!roles) return;

  if (isRecord(roles.signIn)) checkSignIn(context, roles.signIn);

  const seen = new Set<string>();
  for (const role of list(roles.roles)) {
    const name = isRecord(role) ? text(role.name) : undefined;
    if (name === undefined) continue;
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        ['roles', 'roles', name],
        `Role "${name}" is defined twice in point 6 (roles and permissions). Rename one of them.`,
      );
    }
    seen.add(name);
  }

  const grants = new Set<string>();
  for (const grant of list(roles.grants)) {
    if (!isRecord(grant)) continue;
    const roleName = text(grant.role);
    const entityName = text(grant.entity);
    if (roleName === undefined || entityName === undefined) continue;
    const base: PathSegment[] = ['roles', 'roles', roleName, 'can', entityName];
    const owner = `the grant of role "${roleName}" on "${entityName}" (point 6)`;
    const key = `${roleName}\u0000${entityName}`;
    if (grants.has(key)) {
      report(context, 'duplicate-name', base, `${owner} is given twice. Merge the two into one.`);
      continue;
    }
    grants.add(key);
    refer(context, 'role', roleName, base, owner);
    const entity = refer<Entity>(context, 'entity', entityName, base, owner);
    for (const action of list(grant.actions)) {
      if (CRUD_ACTIONS.some((known) => known === action)) continue;
      report(
        context,
        'invalid-value',
        [...base, 'actions'],
        `${owner} allows action "${String(action)}", which is not an action. Use ${CRUD_ACTIONS.join(', ')} or all.`,
        { hint: typeof action === 'string' ? didYouMean(action, CRUD_ACTIONS) : undefined },
      );
    }
    checkGrantOffered(context, grant, roleName, entityName, base, owner);
    for (const field of list(grant.hidden)) referField(context, entity, field, [...base, 'hidden'], owner);
    for (const field of list(grant.readOnly))
      referField(context, entity, field, [...base, 'readOnly'], owner);
    checkCel(
      context,
      grant.where,
      [...base, 'where'],
      `the condition of ${owner}`,
      { entity: entityName, variables: ['record', 'user'] },
      true,
    );
  }
}

/**
 * A grant the client never offers: the role may create or change records in the API, but every form of
 * point 2 for that names other roles. The client and the API would then disagree on what the role may
 * do, unseen; say so, and let the author choose which is meant.
 */
function checkGrantOffered(
  context: Context,
  grant: Record<string, unknown>,
  role: string,
  entity: string,
  base: PathSegment[],
  owner: string,
): void {
  const screens = shown(context.model.screens);
  if (!screens) return;
  const actions = list(grant.actions);
  for (const [action, kind] of [
    ['create', 'create'],
    ['update', 'edit'],
  ] as const) {
    if (!actions.includes(action)) continue;
    const forms = list(screens.items).filter(
      (screen): screen is Record<string, unknown> =>
        isRecord(screen) && screen.kind === kind && screen.entity === entity,
    );
    const closed = (screen: Record<string, unknown>) =>
      Array.isArray(screen.roles) && !screen.roles.includes(role);
    if (forms.length === 0 || !forms.every(closed)) continue;
    report(
      context,
      'unoffered-grant',
      [...base, 'actions'],
      `${owner} lets it ${action} records, but every ${kind} screen of "${entity}" in point 2 is for other ` +
        `roles: the API allows what the client never offers. Add "${role}" to the roles of ${kind === 'edit' ? 'an' : 'a'} ${kind} screen, or ` +
        `take ${action} from the grant.`,
      { severity: 'warning' },
    );
  }
}

function checkSignIn(context: Context, signIn: Record<string, unknown>): void {
  const kind = SIGN_IN_KINDS.find((known) => known === signIn.kind);
  if (kind === undefined) {
    report(
      context,
      'invalid-value',
      ['roles', 'signIn', 'kind'],
      `Sign-in (point 6) has kind "${String(signIn.kind)}", which is not a way to sign in. Use one of: ` +
        `${SIGN_IN_KINDS.join(', ')}.`,
      { hint: typeof signIn.kind === 'string' ? didYouMean(signIn.kind, SIGN_IN_KINDS) : undefined },
    );
    return;
  }
  checkSignInOfKind(context, signIn, kind);
}

function checkSignInOfKind(context: Context, signIn: Record<string, unknown>, kind: SignInKind): void {
  switch (kind) {
    case 'password':
      refer(context, 'call', signIn.call, ['roles', 'signIn', 'call'], 'sign-in (point 6)');
      return;
    case 'none':
    case 'api-key':
    case 'basic':
    case 'token':
    case 'oidc':
    case 'oauth2':
      return;
    default:
      exhaustiveSwitchError(kind);
  }
}

// ------------------------------------------------------------------------------------------ 7. calls

function checkCalls(context: Context): void {
  const calls = shownList(context.model.calls, 'items');
  if (!calls) return;
  const seen = new Set<string>();
  const routes = new Map<string, string>();
  for (const call of calls) {
    if (!isRecord(call)) continue;
    const name = text(call.name);
    if (name === undefined) continue;
    const base: PathSegment[] = ['calls', 'operations', name];
    const owner = `call "${name}" (point 7)`;
    if (seen.has(name)) {
      report(context, 'duplicate-name', base, `${owner} is defined twice. Rename one of them.`);
      continue;
    }
    seen.add(name);

    if (typeof call.path === 'string') {
      const problem = callPathProblem(call.path);
      if (problem !== undefined) {
        report(
          context,
          'invalid-path',
          [...base, 'path'],
          `${owner} has path "${call.path}", which ${problem}`,
        );
      } else if (typeof call.method === 'string') {
        const shape = `${call.method.toUpperCase()} ${call.path.replace(/\{[^}]*\}/g, '{}')}`;
        const first = routes.get(shape);
        if (first !== undefined) {
          report(
            context,
            'conflicting-route',
            [...base, 'path'],
            `${owner} is ${call.method} ${call.path}, which is the same request as call "${first}". ` +
              'Remove one of them or change its method or path.',
          );
        } else {
          routes.set(shape, name);
        }
      }
    }

    const entity = refer<Entity>(context, 'entity', call.entity, [...base, 'entity'], owner);
    if (isRecord(call.body)) {
      const bodyEntity = refer<Entity>(
        context,
        'entity',
        call.body.entity,
        [...base, 'body'],
        `the body of ${owner}`,
      );
      for (const field of list(call.body.fields)) {
        referField(context, bodyEntity, field, [...base, 'body'], `the body of ${owner}`);
      }
    }
    let responseEntity: Entity | undefined;
    if (isRecord(call.response)) {
      responseEntity = refer<Entity>(
        context,
        'entity',
        call.response.entity,
        [...base, 'response'],
        `the response of ${owner}`,
      );
    }
    // Sorting and filtering are on the records the call lists.
    const listed =
      typeof call.entity === 'string' ? entity : isRecord(call.response) ? responseEntity : undefined;
    if (isRecord(call.sort)) {
      for (const field of list(call.sort.fields))
        referField(context, listed, field, [...base, 'sort'], owner);
    }
    for (const filter of list(call.filters)) {
      if (isRecord(filter)) referField(context, listed, filter.field, [...base, 'filters'], owner);
    }
    if (isRecord(call.pagination)) {
      checkAmount(
        context,
        call.pagination.maxSize,
        [...base, 'pagination'],
        `the maximum page size of ${owner}`,
        'number',
      );
    }
  }
}

const CALL_PARAMETER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function callPathProblem(path: string): string | undefined {
  if (!path.startsWith('/'))
    return `does not start with "/". Write it as "/${path}", relative to the base URL.`;
  if (/[?#]/.test(path)) return "has a query or fragment. Put query parameters in the call's parameters.";
  if (/\s/.test(path)) return 'has spaces. Remove them or encode them as %20.';
  if (path.includes('//')) return 'has an empty segment ("//"). Remove it.';
  const names = new Set<string>();
  let rest = path;
  while (rest !== '') {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open === -1 && close === -1) break;
    if (open === -1 || (close !== -1 && close < open))
      return 'has a "}" without its "{". Write parameters as {name}.';
    const end = rest.indexOf('}', open);
    if (end === -1) return 'has a "{" without its "}". Write parameters as {name}.';
    const name = rest.slice(open + 1, end);
    if (!CALL_PARAMETER.test(name)) {
      return `has parameter "{${name}}", whose name is not a plain name. Use letters, digits and _.`;
    }
    if (names.has(name)) return `has parameter "{${name}}" twice. Give each parameter its own name.`;
    names.add(name);
    rest = rest.slice(end + 1);
  }
  const colon = path.split('/').find((segment) => segment.startsWith(':'));
  if (colon !== undefined) {
    return `has segment "${colon}". Call parameters are written {name}, e.g. "{${colon.slice(1)}}".`;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------ 8. errors

function checkErrors(context: Context): void {
  const entries = shownList(context.model.errors, 'entries');
  if (!entries) return;
  entries.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const base: PathSegment[] = ['errors', index];
    const owner = `error entry ${index + 1} (point 8)`;
    const field = entry.field;
    if (typeof field === 'string') {
      const [entityName, ...segments] = field.split('.');
      if (
        entityName === undefined ||
        entityName === '' ||
        segments.length === 0 ||
        !segments.every(Boolean)
      ) {
        report(
          context,
          'invalid-value',
          [...base, 'field'],
          `${owner} names field "${field}"; write it as Entity.field, e.g. "Order.quantity".`,
        );
      } else {
        const entity = refer<Entity>(context, 'entity', entityName, [...base, 'field'], owner);
        referFieldPath(context, entity, segments, [...base, 'field'], owner);
      }
    }
    const match = isRecord(entry.match) ? entry.match : {};
    const code = text(match.code);
    if (
      code !== undefined &&
      answersOnlyFromPrototype(context.model) &&
      !producedCodes(context.model).has(code)
    ) {
      report(
        context,
        'unknown-reference',
        [...base, 'code'],
        `${owner} matches the code "${code}", which no rule of point 5 gives and the prototype API never ` +
          'answers, so it is never used. Give a rule of point 5 this code, or correct it.',
        { severity: 'warning', hint: didYouMean(code, [...producedCodes(context.model)]) },
      );
    }
    const catchAll = match.status === undefined && match.type === undefined && match.code === undefined;
    // A catch-all as the last entry is the usual fallback; anywhere else it hides the entries after it.
    if (catchAll && index < entries.length - 1) {
      report(
        context,
        'invalid-value',
        base,
        `${owner} has no status, type or code, so it matches every answer and the entries after it are ` +
          'never used. This catch-all entry belongs last: put it last, or give it a status, type or code.',
        { severity: 'warning' },
      );
    }
  });
}

function constantNumber(model: Model, name: string): number | undefined {
  const found = (shownList(model.constants, 'items') ?? []).find(
    (item) => isRecord(item) && item.name === name,
  );
  const value = isRecord(found) ? found.value : undefined;
  return typeof value === 'number' ? value : undefined;
}

/**
 * Whether every answer comes from the prototype API (no calls of point 7 to a server of its own): then
 * its codes are known, and a catalogue entry for any other code is dead.
 */
function answersOnlyFromPrototype(model: Model): boolean {
  const calls = model.calls as { shown?: unknown; baseUrl?: unknown } | undefined;
  return calls?.shown !== true || !/^https?:/i.test(String(calls.baseUrl ?? ''));
}

function producedCodes(model: Model): Set<string> {
  const codes = new Set(PROTOTYPE_CODES);
  for (const rule of shownList(model.validation, 'rules') ?? []) {
    const code = isRecord(rule) ? text(rule.code) : undefined;
    if (code !== undefined) codes.add(code);
  }
  return codes;
}

// ------------------------------------------------------------------------------------------ 9. constants

function checkConstants(context: Context): void {
  const constants = shownList(context.model.constants, 'items');
  if (!constants) return;
  const seen = new Set<string>();
  for (const constant of constants) {
    const name = isRecord(constant) ? text(constant.name) : undefined;
    if (name === undefined) continue;
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        ['constants', name],
        `Constant "${name}" is defined twice in point 9 (business constants and limits). Keep one value.`,
      );
      continue;
    }
    seen.add(name);
    if (isScopeVariable(name) || CEL_RESERVED.has(name)) {
      report(
        context,
        'invalid-value',
        ['constants', name],
        `Constant "${name}" (point 9) cannot be used in expressions, because "${name}" is ` +
          `${isScopeVariable(name) ? 'a variable of expressions' : 'a reserved word of CEL'}. Rename it.`,
        { severity: 'warning' },
      );
    }
  }
}

// Words CEL keeps for itself (the CEL language definition); a constant by such a name is never visible.
const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

// ------------------------------------------------------------------------------------------ CEL

/**
 * Checks one expression in its scope. `what` names it for the message ("The guard of transition ...").
 * With `expectBool`, the expression must give true or false (guards, rule checks, conditions).
 */
function checkCel(
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
  try {
    const env = expressionEnvironment(context.model, scope);
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
      { offset: result.offset },
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
  if (missingKey !== undefined && scope.entity !== undefined) {
    const entity = context.entities?.get(scope.entity);
    if (entity !== undefined) {
      advice = `Use a field of "${entity.name}" (point 3).`;
      hint = didYouMean(missingKey, reachableFieldNames(context, entity));
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
    },
  );
}

function isScopeVariable(name: string): name is ScopeVariable {
  return SCOPE_VARIABLES.some((variable) => variable === name);
}

function describeVariables(variables: readonly ScopeVariable[], withConstants: boolean): string {
  const names = variables.map((name) => `"${name}"`);
  if (withConstants) names.push('the constants of point 9');
  if (names.length === 0) return 'only literals';
  if (names.length === 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Field names of an entity and of the embedded entities below it, for "did you mean" on `a.b.c`. */
function reachableFieldNames(context: Context, entity: Entity): string[] {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The point's content when it is shown; a point whose `shown` is anything but true shows nothing. */
function shown(point: unknown): Record<string, unknown> | undefined {
  return isRecord(point) && point.shown === true ? point : undefined;
}

function shownList(point: unknown, key: string): unknown[] | undefined {
  const content = shown(point);
  return content === undefined ? undefined : list(content[key]);
}

function kindOf(type: unknown): FieldKind | undefined {
  if (!isRecord(type)) return undefined;
  return FIELD_KINDS.find((known) => known === type.kind);
}

/** The element type of a (nested) list, or the type itself. */
function innermostType(type: unknown): unknown {
  let current = type;
  for (let depth = 0; depth < 16 && isRecord(current) && current.kind === 'list'; depth++)
    current = current.of;
  return current;
}

function describeKind(field: unknown): string {
  const kind = kindOf(field);
  if (kind !== 'list') return kind ?? 'untyped';
  const inner = kindOf(innermostType(field));
  return inner === undefined ? 'list' : `list of ${inner}`;
}

function pointNumber(point: PointKey): string {
  return `point ${POINT_KEYS.indexOf(point) + 1}`;
}

function pointLabel(point: PointKey): string {
  return `${pointNumber(point)} (${POINT_NAMES[point]})`;
}

function pointIndex(segment: PathSegment | undefined): number {
  const index = segment === undefined ? -1 : (POINT_KEYS as readonly PathSegment[]).indexOf(segment);
  return index === -1 ? POINT_KEYS.length : index;
}
