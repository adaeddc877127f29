import { exhaustiveSwitchError } from '../exhaustive';
import type { Issue } from '../issues';
import {
  type Amount,
  type BrandTheme,
  type Call,
  type Constant,
  CRUD_ACTIONS,
  type CrudAction,
  type Entity,
  type ErrorEntry,
  type ErrorMatch,
  type Field,
  type FieldType,
  type Figure,
  type Grant,
  type Model,
  type Pagination,
  type Parameter,
  POINT_KEYS,
  POINT_NAMES,
  type Point,
  type PointKey,
  type Roles,
  type Rule,
  type Screen,
  type SignIn,
  type StateMachine,
  type Validation,
} from '../model';
import type {
  CallDocument,
  ConstantDocument,
  DocumentInput,
  EntityDocument,
  ErrorEntryDocument,
  FigureDocument,
  GrantDocument,
  RolesDocument,
  ScreenDocument,
  StateMachineDocument,
  TypeDocument,
  ValidationDocument,
} from './schema';
import { notShownReason } from './schema';

/**
 * Turns a validated authoring document into the model: maps become named arrays, shorthands are
 * expanded, and every point is either shown or explicitly not shown. Only fills in what the document
 * implies (path parameters from a path template, states from the state field's enum); it invents nothing.
 *
 * @example
 * ```ts
 * const { model } = normalize({ title: 'Shop', product: 'not shown' });
 * model.product; // { shown: false }
 * model.screens; // { shown: false }, with a `missing-point` error
 * ```
 */
export function normalize(doc: DocumentInput): { model: Model; issues: Issue[] } {
  const issues: Issue[] = [];
  const point = <D, T>(
    key: PointKey,
    value: D | string | undefined,
    convert: (content: D) => T,
  ): Point<T> => {
    if (value === undefined) {
      issues.push({
        code: 'missing-point',
        // An error, not a guess: a deleted heading would otherwise turn a whole point into "not shown",
        // and everything it said (permissions, rules) would silently stop applying.
        severity: 'error',
        message: `Point ${POINT_KEYS.indexOf(key) + 1} (${POINT_NAMES[key]}) is missing: a specification says each point, or says that it is not shown.`,
        // Where its section would be: a Markdown heading that is there but broken is found (read.ts).
        path: [key],
        hint: `say so explicitly: a "## ${POINT_KEYS.indexOf(key) + 1}." section with the words "Not shown", or "${key}: not shown" in YAML`,
      });
      return { shown: false };
    }
    if (typeof value === 'string') {
      const reason = notShownReason(value);
      return reason === undefined ? { shown: false } : { shown: false, reason };
    }
    return { shown: true, ...convert(value) };
  };

  const entitiesDoc = typeof doc.entities === 'object' ? doc.entities : undefined;
  const model: Model = {
    ...(doc.title === undefined ? {} : { title: doc.title.trim() }),
    product: point('product', doc.product, (product) => ({
      ...optional('summary', trimmed(product.summary)),
      ...optional('description', trimmed(product.description)),
      audience: product.audience ?? [],
      ...optional('home', product.home),
      ...optional('language', product.language),
      ...optional('timeZone', product.timeZone),
      ...brandOf(product),
      ...optional('translations', product.translations),
    })),
    screens: point('screens', doc.screens, (screens) => ({
      items: Object.entries(screens).map(([name, screen]) => toScreen(name, screen)),
    })),
    entities: point('entities', doc.entities, (entities) => ({
      items: Object.entries(entities).map(([name, entity]) => toEntity(name, entity)),
    })),
    states: point('states', doc.states, (machines) => ({
      machines: Object.entries(machines).map(([key, machine]) => toStateMachine(key, machine, entitiesDoc)),
    })),
    validation: point('validation', doc.validation, toValidation),
    roles: point('roles', doc.roles, toRoles),
    calls: point('calls', doc.calls, (calls) => ({
      ...optional('baseUrl', calls.baseUrl),
      items: Object.entries(calls.operations).map(([name, call]) => toCall(name, call)),
    })),
    errors: point('errors', doc.errors, (entries) => ({ entries: entries.map(toErrorEntry) })),
    constants: point('constants', doc.constants, (constants) => ({
      items: Object.entries(constants).map(([name, constant]) => toConstant(name, constant)),
    })),
  };
  const notes = Object.entries(doc.notes ?? {}).filter(([, text]) => text?.trim());
  if (notes.length > 0) {
    model.notes = Object.fromEntries(notes.map(([key, text]) => [key, (text ?? '').trim()]));
  }
  return { model, issues };
}

/** `{key: value}` when the value is defined, `{}` otherwise: keeps absent keys absent in the JSON. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function trimmed(text: string | undefined): string | undefined {
  const value = text?.trim();
  return value === '' ? undefined : value;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A bound written as a number, an ISO date, or the name of a constant. */
export function toAmount(value: number | string): Amount {
  if (typeof value === 'number') return { kind: 'number', value };
  const text = value.trim();
  return ISO_DATE.test(text) ? { kind: 'date', value: text } : { kind: 'constant', name: text };
}

// ------------------------------------------------------------------------------------- screens

function toScreen(name: string, doc: ScreenDocument): Screen {
  const base = {
    name,
    ...optional('title', doc.title),
    ...optional('description', trimmed(doc.description)),
    route: doc.route,
    ...optional('roles', doc.roles),
    ...optional('hidden', doc.hidden),
    ...optional('group', doc.group),
  };
  const kind = doc.kind;
  switch (kind) {
    case 'list':
      return {
        ...base,
        kind,
        entity: doc.entity ?? '',
        columns: doc.columns ?? [],
        filters: doc.filters ?? [],
        sort: (doc.sort ?? []).map((key) =>
          key.startsWith('-') ? { field: key.slice(1), direction: 'desc' } : { field: key, direction: 'asc' },
        ),
        ...optional('pageSize', doc.pageSize === undefined ? undefined : toAmount(doc.pageSize)),
        ...optional('card', doc.card),
      };
    case 'detail':
      return { ...base, kind, entity: doc.entity ?? '', ...optional('fields', doc.fields) };
    case 'create':
    case 'edit':
      return { ...base, kind, entity: doc.entity ?? '', ...optional('fields', doc.fields) };
    case 'dashboard':
      return {
        ...base,
        kind,
        tiles: doc.tiles ?? [],
        figures: Object.entries(doc.figures ?? {}).map(([name, figure]) => toFigure(name, figure)),
      };
    case 'sign-in':
      return { ...base, kind };
    case 'custom':
      return { ...base, kind, component: doc.component ?? '', ...optional('entity', doc.entity) };
    default:
      return exhaustiveSwitchError(kind);
  }
}

/** A figure's chart by default: a number alone, bars for groups, a line over periods. */
function toFigure(name: string, doc: FigureDocument): Figure {
  return {
    name,
    ...optional('title', doc.title),
    ...optional('description', doc.description),
    entity: doc.entity,
    measure: doc.measure,
    ...optional('field', doc.field),
    ...optional('by', doc.by),
    ...optional('per', doc.per),
    ...optional('where', doc.where),
    chart: doc.chart ?? (doc.per ? 'line' : doc.by ? 'bar' : 'figure'),
    ...optional('call', doc.call),
  };
}

// ------------------------------------------------------------------------------------- entities

function toEntity(name: string, doc: EntityDocument): Entity {
  return {
    name,
    ...optional('label', doc.label),
    ...optional('plural', doc.plural),
    ...optional('description', trimmed(doc.description)),
    ...optional('key', doc.key),
    ...optional('display', doc.display),
    ...optional('embedded', doc.embedded),
    ...optional('table', doc.table),
    fields: Object.entries(doc.fields).map(([fieldName, field]) => toField(fieldName, field as FieldLike)),
  };
}

interface FieldLike extends TypeDocument {
  label?: string;
  help?: string;
  format?: string;
  widget?: string;
  readOnly?: boolean;
  writeOnly?: boolean;
  derived?: string;
  default?: Field['default'];
  setOnCreate?: string;
  numbering?: string;
  copyFrom?: string;
  internal?: boolean;
  column?: string;
  keyOf?: string[];
  through?: string;
  group?: string;
}

function toField(name: string, doc: FieldLike): Field {
  return {
    name,
    ...toFieldType(doc),
    ...optional('label', doc.label),
    ...optional('help', doc.help),
    ...optional('format', doc.format),
    ...optional('widget', doc.widget),
    ...optional('readOnly', doc.readOnly),
    ...optional('writeOnly', doc.writeOnly),
    ...optional('derived', doc.derived),
    ...optional('default', doc.default),
    ...optional('setOnCreate', doc.setOnCreate),
    ...optional('numbering', doc.numbering),
    ...optional('copyFrom', doc.copyFrom),
    ...optional('internal', doc.internal),
    ...optional('column', doc.column),
    ...optional('keyOf', doc.keyOf),
    ...optional('through', doc.through),
    ...optional('group', doc.group),
  };
}

/** The schema has already checked each kind's keys; this only gives them their model shape. */
export function toFieldType(doc: TypeDocument): FieldType {
  const kind = doc.kind as FieldType['kind'];
  switch (kind) {
    case 'text':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'date':
    case 'datetime':
    case 'markdown':
      return { kind };
    case 'money':
      return { kind, ...optional('currency', doc.currency as string | undefined) };
    case 'file':
      return { kind, ...optional('accept', doc.accept as string[] | undefined) };
    case 'enum':
      return {
        kind,
        values: (doc.values as Array<string | { value: string; label?: string }>).map((value) =>
          typeof value === 'string' ? { value } : { value: value.value, ...optional('label', value.label) },
        ),
      };
    case 'reference':
    case 'object':
      return { kind, entity: doc.entity as string };
    case 'list':
      return { kind, of: toFieldType(doc.of as TypeDocument) };
    default:
      return exhaustiveSwitchError(kind);
  }
}

// ------------------------------------------------------------------------------------- states

function toStateMachine(
  key: string,
  doc: StateMachineDocument,
  entities: Record<string, EntityDocument> | undefined,
): StateMachine {
  const [entity = '', field = ''] = key.split('.');
  return {
    entity,
    field,
    initial: doc.initial,
    states: toStates(doc.states, entities?.[entity]?.fields[field] as FieldLike | undefined),
    transitions: Object.entries(doc.transitions).map(([name, transition]) => ({
      name,
      ...optional('label', transition.label),
      from: typeof transition.from === 'string' ? [transition.from] : transition.from,
      to: transition.to,
      ...optional('roles', transition.roles),
      ...optional('guard', transition.guard),
      ...optional('guardMessage', transition.guardMessage),
      ...optional('guardCode', transition.guardCode),
      ...optional('call', transition.call),
      ...optional('confirm', transition.confirm),
      set: Object.entries(transition.set ?? {}).map(([target, expression]) => ({
        field: target,
        expression,
      })),
      ...(transition.updates?.length ? { updates: transition.updates } : {}),
    })),
  };
}

/** Listed states, or else the values of the state field's enum, which name the states already. */
function toStates(
  doc: StateMachineDocument['states'],
  stateField: FieldLike | undefined,
): StateMachine['states'] {
  if (Array.isArray(doc)) return doc.map((name) => ({ name }));
  if (doc) {
    return Object.entries(doc).map(([name, info]) => ({
      name,
      ...optional('label', info.label),
      ...optional('tone', info.tone),
      ...optional('final', info.final),
    }));
  }
  if (stateField?.kind !== 'enum') return [];
  const type = toFieldType(stateField);
  return type.kind === 'enum'
    ? type.values.map((value) => ({ name: value.value, ...optional('label', value.label) }))
    : [];
}

// ------------------------------------------------------------------------------------- validation

function toValidation(doc: ValidationDocument): Validation {
  return {
    fields: Object.entries(doc.fields ?? {}).map(([key, constraints]) => {
      const [entity = '', ...field] = key.split('.');
      return {
        entity,
        field,
        ...optional('required', constraints.required),
        ...optional('min', constraints.min === undefined ? undefined : toAmount(constraints.min)),
        ...optional('max', constraints.max === undefined ? undefined : toAmount(constraints.max)),
        ...optional('pattern', constraints.pattern),
        ...optional('unique', constraints.unique),
        ...optional('uniqueWith', constraints.uniqueWith),
        ...optional('message', constraints.message),
      };
    }),
    rules: (doc.rules ?? []).map((rule) => ({
      ...optional('name', rule.name),
      entity: rule.entity,
      check: rule.check,
      message: rule.message,
      ...optional('field', rule.field),
      ...optional('code', rule.code),
      ...optional('hint', rule.hint),
      ...ruleMoments(rule.on),
    })),
  };
}

/** `on: [update, submit]`: the writes a rule applies on, and the transitions named besides. */
function ruleMoments(on: string[] | undefined): Pick<Rule, 'on' | 'transitions'> {
  if (on === undefined) return { on: ['create', 'update'] };
  const writes = on.filter(
    (moment): moment is 'create' | 'update' => moment === 'create' || moment === 'update',
  );
  const transitions = on.filter((moment) => moment !== 'create' && moment !== 'update');
  return { on: writes, ...optional('transitions', transitions.length > 0 ? transitions : undefined) };
}

// ------------------------------------------------------------------------------------- roles

function toRoles(doc: RolesDocument): Roles {
  return {
    signIn: toSignIn(doc.signIn),
    roles: Object.entries(doc.roles).map(([name, role]) => ({
      name,
      ...optional('label', role.label),
      ...optional('description', trimmed(role.description)),
      ...optional('home', role.home),
      ...(role.signedOut ? { signedOut: true as const } : {}),
      ...(role.managesPeople ? { managesPeople: true as const } : {}),
    })),
    grants: Object.entries(doc.roles).flatMap(([role, { can }]) =>
      Object.entries(can ?? {}).map(([entity, grant]) => toGrant(role, entity, grant)),
    ),
  };
}

function toSignIn(doc: RolesDocument['signIn']): SignIn {
  const kind = doc.kind;
  switch (kind) {
    case 'none':
      return { kind };
    case 'password':
      return { kind, ...optional('call', doc.call), session: doc.session ?? 'memory' };
    case 'api-key':
      return { kind, in: doc.in ?? 'header', name: doc.name, session: doc.session ?? 'memory' };
    case 'basic':
    case 'token':
      return { kind, session: doc.session ?? 'memory' };
    case 'oidc':
      return {
        kind,
        issuer: doc.issuer,
        clientId: doc.clientId,
        scopes: doc.scopes ?? [],
        session: doc.session ?? 'memory',
      };
    case 'oauth2':
      return {
        kind,
        authorizationUrl: doc.authorizationUrl,
        tokenUrl: doc.tokenUrl,
        ...optional('clientId', doc.clientId),
        scopes: doc.scopes ?? [],
        session: doc.session ?? 'memory',
      };
    default:
      return exhaustiveSwitchError(kind);
  }
}

function toGrant(role: string, entity: string, doc: GrantDocument): Grant {
  const actions = (value: 'all' | CrudAction[]): CrudAction[] =>
    value === 'all' ? [...CRUD_ACTIONS] : value;
  if (typeof doc === 'string' || Array.isArray(doc)) {
    return { role, entity, actions: actions(doc), hidden: [], readOnly: [] };
  }
  return {
    role,
    entity,
    actions: actions(doc.actions),
    ...optional('where', doc.where),
    hidden: doc.hidden ?? [],
    ...optional('hiddenWhile', doc.hiddenWhile),
    readOnly: doc.readOnly ?? [],
  };
}

// ------------------------------------------------------------------------------------- calls

const PATH_PARAMETER = /\{([^{}]+)\}/g;

function toCall(name: string, doc: CallDocument): Call {
  const declared: Parameter[] = Object.entries(doc.parameters ?? {}).map(([parameter, spec]) => ({
    name: parameter,
    in: spec.in,
    required: spec.required ?? spec.in === 'path',
    type: spec.type ? toFieldType(spec.type) : { kind: 'text' },
    ...optional('description', spec.description),
  }));
  // A path template names its parameters; declaring them again is optional.
  const implied: Parameter[] = [...doc.path.matchAll(PATH_PARAMETER)]
    .map((match) => match[1] ?? '')
    .filter((parameter) => !declared.some((p) => p.name === parameter && p.in === 'path'))
    .map((parameter) => ({ name: parameter, in: 'path', required: true, type: { kind: 'text' } }));
  const body = doc.body;
  return {
    name,
    method: doc.method,
    path: doc.path,
    purpose: doc.purpose ?? 'other',
    ...optional('entity', doc.entity),
    ...optional('description', trimmed(doc.description)),
    parameters: [...implied, ...declared],
    ...optional(
      'body',
      body === undefined
        ? undefined
        : typeof body === 'string'
          ? { entity: body, encoding: 'json' as const }
          : { entity: body.entity, ...optional('fields', body.fields), encoding: body.encoding ?? 'json' },
    ),
    ...optional(
      'response',
      doc.response && {
        shape: doc.response.shape,
        // An answer with no body holds no records, so it takes no entity from the call.
        ...optional(
          'entity',
          doc.response.entity ?? (doc.response.shape === 'none' ? undefined : doc.entity),
        ),
        ...optional('items', doc.response.items),
        ...optional('total', doc.response.total),
      },
    ),
    ...optional('pagination', doc.pagination === undefined ? undefined : toPagination(doc.pagination)),
    ...optional(
      'sort',
      doc.sort && {
        param: doc.sort.param ?? 'sort',
        fields: doc.sort.fields,
        style: doc.sort.style ?? 'field,-field',
      },
    ),
    filters: (doc.filters ?? []).map((filter) =>
      typeof filter === 'string'
        ? { field: filter, param: filter, op: 'eq' as const }
        : {
            field: filter.field,
            param: filter.param ?? filter.field,
            op: filter.op ?? 'eq',
            ...optional('pattern', filter.pattern),
          },
    ),
    ...optional(
      'search',
      doc.search === undefined
        ? undefined
        : typeof doc.search === 'string'
          ? { param: doc.search }
          : { param: doc.search.param, ...optional('fields', doc.search.fields) },
    ),
  };
}

/** The documented default parameter names of each style, overridable one by one. */
function toPagination(doc: NonNullable<CallDocument['pagination']>): Pagination {
  const spec = typeof doc === 'string' ? { style: doc } : doc;
  const maxSize = optional(
    'maxSize',
    'maxSize' in spec && spec.maxSize !== undefined ? toAmount(spec.maxSize) : undefined,
  );
  const get = (key: 'pageParam' | 'sizeParam' | 'offsetParam' | 'limitParam' | 'cursorParam' | 'nextField') =>
    (spec as Partial<Record<typeof key, string>>)[key];
  const style = spec.style;
  switch (style) {
    case 'page':
      return {
        style,
        pageParam: get('pageParam') ?? 'page',
        sizeParam: get('sizeParam') ?? 'limit',
        ...maxSize,
      };
    case 'offset':
      return {
        style,
        offsetParam: get('offsetParam') ?? 'offset',
        limitParam: get('limitParam') ?? 'limit',
        ...maxSize,
      };
    case 'cursor':
      return {
        style,
        cursorParam: get('cursorParam') ?? 'cursor',
        sizeParam: get('sizeParam') ?? 'limit',
        nextField: get('nextField') ?? 'next',
        ...maxSize,
      };
    case 'link-header':
      return { style, ...optional('sizeParam', get('sizeParam')), ...maxSize };
    case 'none':
      return { style };
    default:
      return exhaustiveSwitchError(style);
  }
}

// ------------------------------------------------------------------------------------- errors, constants

function toErrorEntry(doc: ErrorEntryDocument): ErrorEntry {
  const match: ErrorMatch = {
    ...optional('status', doc.status as ErrorMatch['status']),
    ...optional('type', doc.type),
    ...optional('code', doc.code),
  };
  return { match, message: doc.message, action: doc.action ?? 'none', ...optional('field', doc.field) };
}

function toConstant(name: string, doc: ConstantDocument): Constant {
  if (typeof doc !== 'object') return { name, value: doc };
  return {
    name,
    value: doc.value,
    ...optional('unit', doc.unit),
    ...optional('meaning', trimmed(doc.meaning)),
  };
}

/** Point 1's brand properties as one theme, or nothing when none is given. */
function brandOf(product: {
  brandColor?: string | undefined;
  logo?: string | undefined;
  font?: string | undefined;
  radius?: number | undefined;
  density?: 'compact' | 'comfortable' | undefined;
}): { theme?: BrandTheme } {
  const theme: BrandTheme = {
    ...optional('primaryColor', trimmed(product.brandColor)),
    ...optional('logo', trimmed(product.logo)),
    ...optional('font', trimmed(product.font)),
    ...optional('radius', product.radius),
    ...optional('density', product.density),
  };
  return Object.keys(theme).length === 0 ? {} : { theme };
}
