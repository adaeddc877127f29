import type { Field, Model, PointKey } from '../model';
import { POINT_KEYS } from '../model';

/** What a change of specification touches, in the order `ninefold diff` reports it. */
export type ChangeArea =
  | 'point'
  | 'screen'
  | 'entity'
  | 'field'
  | 'constraint'
  | 'state'
  | 'transition'
  | 'role'
  | 'permission'
  | 'call'
  | 'error'
  | 'constant';

export const CHANGE_AREAS: readonly ChangeArea[] = [
  'point',
  'screen',
  'entity',
  'field',
  'constraint',
  'state',
  'transition',
  'role',
  'permission',
  'call',
  'error',
  'constant',
];

/** One difference between two specifications. */
export interface ModelChange {
  area: ChangeArea;
  change: 'added' | 'removed' | 'changed';
  /** What changed, as the specification names it: `orders`, `Order.total`, `clerk on Order`, `OUT_OF_STOCK`. */
  name: string;
  /** For a change: what it was and what it is, in words (`kind integer → number; now read-only`). */
  detail?: string;
}

/**
 * What a change of specification does, point by point: the screens, entities and fields, constraints,
 * states and transitions, roles and permissions, calls, error catalogue entries and constants that were
 * added, removed or changed. Pure; what the database must do about it is the prototype API's to say.
 *
 * @example
 * diffModels(before, after);
 * // [{ area: 'field', change: 'added', name: 'Product.rating' },
 * //  { area: 'permission', change: 'changed', name: 'clerk on Order', detail: 'actions read, create → read' }]
 */
export function diffModels(before: Model, after: Model): ModelChange[] {
  const changes: ModelChange[] = [];
  const push = (change: ModelChange) => changes.push(change);

  for (const key of POINT_KEYS) {
    const was = (before[key as PointKey] as { shown: boolean }).shown;
    const is = (after[key as PointKey] as { shown: boolean }).shown;
    if (was !== is)
      push({
        area: 'point',
        change: is ? 'added' : 'removed',
        name: key,
        detail: is ? 'now shown' : 'now not shown',
      });
  }

  compare(
    before.screens.shown ? before.screens.items : [],
    after.screens.shown ? after.screens.items : [],
    (screen) => screen.name,
    (name, change, detail) => push({ area: 'screen', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['kind', a.kind, b.kind],
        ['route', a.route, b.route],
        ['entity', 'entity' in a ? a.entity : undefined, 'entity' in b ? b.entity : undefined],
        ['roles', a.roles, b.roles],
        ['columns', 'columns' in a ? a.columns : undefined, 'columns' in b ? b.columns : undefined],
        ['fields', 'fields' in a ? a.fields : undefined, 'fields' in b ? b.fields : undefined],
        ['component', 'component' in a ? a.component : undefined, 'component' in b ? b.component : undefined],
        ['hidden', a.hidden, b.hidden],
      ]),
  );

  const entitiesBefore = before.entities.shown ? before.entities.items : [];
  const entitiesAfter = after.entities.shown ? after.entities.items : [];
  compare(
    entitiesBefore,
    entitiesAfter,
    (entity) => entity.name,
    (name, change, detail) => push({ area: 'entity', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['key', a.key, b.key],
        ['display', a.display, b.display],
        ['embedded', a.embedded, b.embedded],
      ]),
  );
  for (const entity of entitiesAfter) {
    const old = entitiesBefore.find((candidate) => candidate.name === entity.name);
    if (!old) continue;
    compare(
      old.fields,
      entity.fields,
      (field) => field.name,
      (name, change, detail) =>
        push({ area: 'field', change, name: `${entity.name}.${name}`, ...(detail ? { detail } : {}) }),
      fieldChange,
    );
  }
  for (const entity of entitiesAfter) {
    if (entitiesBefore.some((candidate) => candidate.name === entity.name)) continue;
    for (const field of entity.fields)
      push({ area: 'field', change: 'added', name: `${entity.name}.${field.name}` });
  }

  compare(
    before.validation.shown ? before.validation.fields : [],
    after.validation.shown ? after.validation.fields : [],
    (constraint) => [constraint.entity, ...constraint.field].join('.'),
    (name, change, detail) => push({ area: 'constraint', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['required', a.required, b.required],
        ['min', a.min, b.min],
        ['max', a.max, b.max],
        ['pattern', a.pattern, b.pattern],
        ['unique', a.unique, b.unique],
      ]),
  );
  compare(
    before.validation.shown ? before.validation.rules : [],
    after.validation.shown ? after.validation.rules : [],
    (rule) => `${rule.entity} rule ${rule.name ?? rule.check}`,
    (name, change, detail) => push({ area: 'constraint', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['rule', a.check, b.check],
        ['message', a.message, b.message],
      ]),
  );

  const machinesBefore = before.states.shown ? before.states.machines : [];
  const machinesAfter = after.states.shown ? after.states.machines : [];
  const machineName = (machine: { entity: string; field: string }) => `${machine.entity}.${machine.field}`;
  compare(
    machinesBefore.flatMap((machine) =>
      machine.states.map((state) => ({ key: `${machineName(machine)} ${state.name}` })),
    ),
    machinesAfter.flatMap((machine) =>
      machine.states.map((state) => ({ key: `${machineName(machine)} ${state.name}` })),
    ),
    (state) => state.key,
    (name, change) => push({ area: 'state', change, name }),
    () => undefined,
  );
  compare(
    machinesBefore.flatMap((machine) =>
      machine.transitions.map((transition) => ({ machine: machineName(machine), transition })),
    ),
    machinesAfter.flatMap((machine) =>
      machine.transitions.map((transition) => ({ machine: machineName(machine), transition })),
    ),
    (item) => `${item.machine} ${item.transition.name}`,
    (name, change, detail) => push({ area: 'transition', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['from', a.transition.from, b.transition.from],
        ['to', a.transition.to, b.transition.to],
        ['roles', a.transition.roles, b.transition.roles],
        ['guard', a.transition.guard, b.transition.guard],
        ['call', a.transition.call, b.transition.call],
      ]),
  );

  compare(
    before.roles.shown ? before.roles.roles : [],
    after.roles.shown ? after.roles.roles : [],
    (role) => role.name,
    (name, change) => push({ area: 'role', change, name }),
    () => undefined,
  );
  compare(
    before.roles.shown ? before.roles.grants : [],
    after.roles.shown ? after.roles.grants : [],
    (grant) => `${grant.role} on ${grant.entity}`,
    (name, change, detail) => push({ area: 'permission', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['actions', a.actions, b.actions],
        ['where', a.where, b.where],
        ['hidden', a.hidden, b.hidden],
        ['read-only', a.readOnly, b.readOnly],
      ]),
  );

  compare(
    before.calls.shown ? before.calls.items : [],
    after.calls.shown ? after.calls.items : [],
    (call) => call.name,
    (name, change, detail) => push({ area: 'call', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['method', a.method, b.method],
        ['path', a.path, b.path],
        ['purpose', a.purpose, b.purpose],
        ['entity', a.entity, b.entity],
        [
          'parameters',
          a.parameters.map((parameter) => parameter.name),
          b.parameters.map((parameter) => parameter.name),
        ],
      ]),
  );

  compare(
    before.errors.shown ? before.errors.entries : [],
    after.errors.shown ? after.errors.entries : [],
    (entry) =>
      [entry.match.code, entry.match.status, entry.match.type]
        .filter((part) => part !== undefined)
        .join(' ') || 'any',
    (name, change, detail) => push({ area: 'error', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['message', a.message, b.message],
        ['action', a.action, b.action],
        ['field', a.field, b.field],
      ]),
  );

  compare(
    before.constants.shown ? before.constants.items : [],
    after.constants.shown ? after.constants.items : [],
    (constant) => constant.name,
    (name, change, detail) => push({ area: 'constant', change, name, ...(detail ? { detail } : {}) }),
    (a, b) =>
      describe([
        ['value', a.value, b.value],
        ['unit', a.unit, b.unit],
      ]),
  );
  return changes;
}

/** Added, removed and changed items of two lists, matched by name, each reported once in the new order. */
function compare<T>(
  before: readonly T[],
  after: readonly T[],
  nameOf: (item: T) => string,
  report: (name: string, change: ModelChange['change'], detail?: string) => void,
  changeOf: (before: T, after: T) => string | undefined,
): void {
  const old = new Map(before.map((item) => [nameOf(item), item]));
  const next = new Set(after.map(nameOf));
  for (const item of before) if (!next.has(nameOf(item))) report(nameOf(item), 'removed');
  for (const item of after) {
    const was = old.get(nameOf(item));
    if (was === undefined) {
      report(nameOf(item), 'added');
      continue;
    }
    const detail = changeOf(was, item);
    if (detail !== undefined) report(nameOf(item), 'changed', detail);
  }
}

/** `kind integer → number; read-only no → yes`, or undefined when nothing differs. */
function describe(parts: Array<[string, unknown, unknown]>): string | undefined {
  const said = parts
    .filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b))
    .map(([label, a, b]) => `${label} ${shown(a)} → ${shown(b)}`);
  return said.length === 0 ? undefined : said.join('; ');
}

function shown(value: unknown): string {
  if (value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(shown).join(', ');
  if (typeof value === 'object' && value !== null) {
    const amount = value as { kind?: string; value?: unknown; name?: string };
    if (amount.kind === 'constant') return String(amount.name);
    if ('value' in amount) return String(amount.value);
    return JSON.stringify(value);
  }
  return String(value);
}

/** The parts of a field that are its type: what it holds, not how it is shown or written. */
const NOT_TYPE = new Set([
  'name',
  'label',
  'help',
  'readOnly',
  'writeOnly',
  'derived',
  'default',
  'widget',
  'format',
]);

function fieldChange(a: Field, b: Field): string | undefined {
  const type = (field: Field) => JSON.stringify(Object.entries(field).filter(([key]) => !NOT_TYPE.has(key)));
  const sameType = type(a) === type(b);
  return describe([
    ['type', sameType ? 'same' : typeText(a), sameType ? 'same' : typeText(b)],
    ['read-only', a.readOnly ?? false, b.readOnly ?? false],
    ['write-only', a.writeOnly ?? false, b.writeOnly ?? false],
    ['derived', a.derived, b.derived],
    ['default', a.default, b.default],
    ['widget', a.widget, b.widget],
    ['format', a.format, b.format],
    ['label', a.label, b.label],
    ['help', a.help, b.help],
  ]);
}

/** A field's kind as a person reads it: `enum (draft, placed)`, `reference to Customer`, `money EUR`. */
function typeText(field: Field): string {
  switch (field.kind) {
    case 'enum':
      return `enum (${field.values.map((value) => value.value).join(', ')})`;
    case 'reference':
      return `reference to ${field.entity}`;
    case 'money':
      return `money ${field.currency ?? ''}`.trim();
    case 'object':
      return `object ${field.entity}`;
    case 'list':
      return `list of ${field.of.kind}`;
    default:
      return field.kind;
  }
}
