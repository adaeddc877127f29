/**
 * The normalized nine-point model of a web client.
 *
 * Every loader (Markdown, YAML, JSON, and later OpenAPI) produces this one shape. It is plain JSON: the
 * client reads it as `spec.json` and the prototype API serves from it. Collections are arrays of named
 * items rather than maps so that order is kept even for names that look like numbers.
 *
 * @example
 * ```ts
 * const model: Model = {
 *   title: 'Empty shell',
 *   product: { shown: false }, screens: { shown: false }, entities: { shown: false },
 *   states: { shown: false }, validation: { shown: false }, roles: { shown: false },
 *   calls: { shown: false }, errors: { shown: false }, constants: { shown: false },
 * };
 * ```
 */
export interface Model {
  /** The product's name, known even when point 1 is not shown (the `#` title of a Markdown spec). */
  title?: string;
  product: Point<Product>;
  screens: Point<Screens>;
  entities: Point<Entities>;
  states: Point<States>;
  validation: Point<Validation>;
  roles: Point<Roles>;
  calls: Point<Calls>;
  errors: Point<ErrorCatalogue>;
  constants: Point<Constants>;
  /** Prose about a point that belongs to none of its items, kept so that nothing written is lost. */
  notes?: Partial<Record<PointKey, string>>;
}

/** A point is either shown, with its content, or explicitly not shown (never an empty list standing in). */
export type Point<T> = ({ shown: true } & T) | NotShown;

export interface NotShown {
  shown: false;
  /** The author's explanation, e.g. "Not shown: the product has no workflows yet." */
  reason?: string;
}

/**
 * A model whose nine points are all not shown: the honest shell, and the start of a model built in code
 * (the OpenAPI importer, tests).
 *
 * @example
 * ```ts
 * const model = { ...notShownModel('Shop'), constants: { shown: true, items: [] } };
 * ```
 */
export function notShownModel(title?: string): Model {
  return {
    ...(title === undefined ? {} : { title }),
    product: { shown: false },
    screens: { shown: false },
    entities: { shown: false },
    states: { shown: false },
    validation: { shown: false },
    roles: { shown: false },
    calls: { shown: false },
    errors: { shown: false },
    constants: { shown: false },
  };
}

/** The nine point keys in their fixed order; index + 1 is the point's number. */
export const POINT_KEYS = [
  'product',
  'screens',
  'entities',
  'states',
  'validation',
  'roles',
  'calls',
  'errors',
  'constants',
] as const;
export type PointKey = (typeof POINT_KEYS)[number];

/** Human names of the points, as `ninefold check` and the client's "not shown" page say them. */
export const POINT_NAMES: Record<PointKey, string> = {
  product: 'product',
  screens: 'screens and routes',
  entities: 'entities and fields',
  states: 'states and transitions',
  validation: 'validation rules',
  roles: 'roles and permissions',
  calls: 'calls',
  errors: 'error catalogue',
  constants: 'business constants and limits',
};

// ---------------------------------------------------------------------------------------------- 1. product

export interface Product {
  /** One sentence: what the product does. */
  summary?: string;
  /** Longer Markdown description, rendered safely (never as raw HTML). */
  description?: string;
  /** For whom: the people who use it. */
  audience: string[];
  /** Name of the screen shown at `/`. */
  home?: string;
  /** BCP 47 language of the specification's own texts, e.g. `en`. */
  language?: string;
  /**
   * IANA time zone (`Europe/Amsterdam`) in which `today` starts for expressions; UTC when not shown, so
   * that "overdue" does not depend on where the server runs.
   */
  timeZone?: string;
  /** The brand the client is drawn in; the team's extension module may refine it (docs/extending.md). */
  theme?: BrandTheme;
  /**
   * The specification's words in other languages: by language (`fr`), each text as written in the
   * specification (`Placed on`) and what it is in that language (`Passée le`). See `translateModel`.
   */
  translations?: Translations;
}

/** By BCP 47 language, each of the specification's texts and its translation. */
export type Translations = Record<string, Record<string, string>>;

/** A product's brand, as data. */
export interface BrandTheme {
  /** A CSS colour (`#0b7285`): buttons, links, the current navigation entry. */
  primaryColor?: string;
  /** An image on the client's own origin (a path such as `/brand/logo.svg`) or a `data:image/` URL. */
  logo?: string;
  /** A CSS font-family list. */
  font?: string;
  /** Corner radius in pixels, 0 to 32. */
  radius?: number;
  density?: 'compact' | 'comfortable';
}

// ---------------------------------------------------------------------------------------------- 2. screens

export type ScreenKind = 'list' | 'detail' | 'create' | 'edit' | 'dashboard' | 'sign-in' | 'custom';
export const SCREEN_KINDS: readonly ScreenKind[] = [
  'list',
  'detail',
  'create',
  'edit',
  'dashboard',
  'sign-in',
  'custom',
];

export interface Screens {
  items: Screen[];
}

interface ScreenBase {
  name: string;
  title?: string;
  description?: string;
  /** Route pattern with `:param` segments, e.g. `/stores/:storeId/employees/:id`. */
  route: string;
  /** Roles that may see this screen; absent means every signed-in (or anonymous) user. */
  roles?: string[];
  /** Hidden from navigation (still reachable by link), e.g. detail and edit screens. */
  hidden?: boolean;
  /** The navigation group it is listed under, e.g. an OpenAPI tag; screens without one come first. */
  group?: string;
}

export interface ListScreen extends ScreenBase {
  kind: 'list';
  entity: string;
  /** Field names shown as columns, in order. */
  columns: string[];
  /** Field names the user may filter on. */
  filters: string[];
  /** Field names the user may sort on; the first `sort` entry is the default order. */
  sort: SortKey[];
  pageSize?: Amount;
  /**
   * Field names a phone's card shows under the record's title and state, in order. Absent means the
   * first two columns that are neither.
   */
  card?: string[];
}

export interface SortKey {
  field: string;
  direction: 'asc' | 'desc';
}

export interface DetailScreen extends ScreenBase {
  kind: 'detail';
  entity: string;
  /** Field names shown, in order; absent means all readable fields. */
  fields?: string[];
}

export interface FormScreen extends ScreenBase {
  kind: 'create' | 'edit';
  entity: string;
  /** Field names in the form, in order; absent means all writable fields. */
  fields?: string[];
}

export interface DashboardScreen extends ScreenBase {
  kind: 'dashboard';
  /** Names of list screens summarized as tiles (a count and a link). */
  tiles: string[];
  /** Aggregates drawn as a figure or a chart, after the tiles, in order. */
  figures: Figure[];
}

export type FigureMeasure = 'count' | 'sum' | 'average';
export const FIGURE_MEASURES: readonly FigureMeasure[] = ['count', 'sum', 'average'];
export type FigurePeriod = 'day' | 'week' | 'month';
export const FIGURE_PERIODS: readonly FigurePeriod[] = ['day', 'week', 'month'];
export type FigureChart = 'figure' | 'bar' | 'line' | 'donut';
export const FIGURE_CHARTS: readonly FigureChart[] = ['figure', 'bar', 'line', 'donut'];

/**
 * One aggregate of a dashboard: a count, sum or average over an entity's records that meet `where`,
 * optionally grouped by a field or by the day, week or month of a date field.
 */
export interface Figure {
  name: string;
  title?: string;
  description?: string;
  entity: string;
  measure: FigureMeasure;
  /** The number or money field summed or averaged. */
  field?: string;
  /** The field grouped by: an enum, a boolean, a reference, or a date with `per`. */
  by?: string;
  per?: FigurePeriod;
  /** A condition on `record` (CEL) that the database can run: fields compared with values. */
  where?: string;
  chart: FigureChart;
  /** A call of point 7 that answers the aggregate on an API other than the prototype's. */
  call?: string;
}

export interface SignInScreen extends ScreenBase {
  kind: 'sign-in';
}

export interface CustomScreen extends ScreenBase {
  kind: 'custom';
  /** Name of a registered custom component that renders this screen. */
  component: string;
  entity?: string;
}

export type Screen = ListScreen | DetailScreen | FormScreen | DashboardScreen | SignInScreen | CustomScreen;

// ---------------------------------------------------------------------------------------------- 3. entities

export interface Entities {
  items: Entity[];
}

export interface Entity {
  name: string;
  label?: string;
  plural?: string;
  description?: string;
  /** Field that identifies a record. Absent for embedded value types. */
  key?: string;
  /** Field used to name a record in lists, references and titles. */
  display?: string;
  /** A value type stored inside other records (an address, an order line): no key, no screens of its own. */
  embedded?: boolean;
  /**
   * An existing table the records live in (`table` or `schema.table`): `serve --db` reads and writes
   * it in place and never changes its shape. Absent: the prototype API makes and migrates a table.
   */
  table?: string;
  fields: Field[];
}

export type ScalarKind =
  | 'text'
  | 'number'
  | 'integer'
  | 'money'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'markdown'
  | 'file';
export type FieldKind = ScalarKind | 'enum' | 'reference' | 'object' | 'list';
export const FIELD_KINDS: readonly FieldKind[] = [
  'text',
  'number',
  'integer',
  'money',
  'boolean',
  'date',
  'datetime',
  'markdown',
  'file',
  'enum',
  'reference',
  'object',
  'list',
];

/** The type of a field's value. Lists nest any other type, including objects and references. */
export type FieldType =
  | { kind: Exclude<ScalarKind, 'money' | 'file'> }
  | { kind: 'money'; currency?: string }
  | { kind: 'file'; accept?: string[] }
  | { kind: 'enum'; values: EnumValue[] }
  | { kind: 'reference'; entity: string }
  | { kind: 'object'; entity: string }
  | { kind: 'list'; of: FieldType };

export interface EnumValue {
  value: string;
  label?: string;
}

export type Field = FieldType & {
  name: string;
  label?: string;
  help?: string;
  /** Display format hint: `email`, `url`, `phone`, `percent`, `uuid`, `color`, ... */
  format?: string;
  /** Name of a widget (built-in or a registered custom component) that replaces the default one. */
  widget?: string;
  /** Shown but never written by the client; set by the server. */
  readOnly?: boolean;
  /** Written but never shown back (a password). */
  writeOnly?: boolean;
  /** Computed from other fields by the given CEL expression; implies read-only. */
  derived?: string;
  default?: JsonValue;
  /**
   * CEL over `user` and `now` that the API evaluates when a record is created, e.g. `user.id` for the
   * person who entered it. Only for read-only fields: nobody sends it, the server sets it.
   */
  setOnCreate?: string;
  /**
   * The pattern that numbers new records (`ORD-{seq:6}` gives ORD-000123): the API takes the next
   * number of a counter kept per entity and field, inside the create's own transaction, so numbers
   * have no gaps and no repeats. Only for read-only text fields.
   */
  numbering?: string;
  /**
   * `product.price`: a value the form copies from the record a reference of the same record points at,
   * when that reference is chosen (an order line's unit price from its product). The person may still
   * change it; the API checks it as any value. Only for fields a person writes.
   */
  copyFrom?: string;
  /**
   * Kept and sent like any value, but not shown unless a screen lists it: an external system's id, a
   * sync token, a field only machines read.
   */
  internal?: boolean;
  /** The column of the entity's existing table that holds the field, where its name is not the field's. */
  column?: string;
  /**
   * The record's key is made of these fields' values (a composite key, as a table's primary key of
   * several columns): the key field holds them as one text (`compositeKeyText`), and is stored nowhere
   * itself. Only on the entity's key field, which is read-only.
   */
  keyOf?: string[];
  /**
   * A list of references kept in a team's join table (`table` or `schema.table`): each of its rows pairs
   * this record's key with one referenced record's key (a many-to-many). Only with the entity's `table`.
   */
  through?: string;
  /**
   * The section the field is shown in, on a record's page and in its forms ("Contact", "Payment"):
   * fields of one group are drawn together under its name, in the order the groups first appear.
   */
  group?: string;
};

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// ---------------------------------------------------------------------------------------------- 4. states

export interface States {
  machines: StateMachine[];
}

export interface StateMachine {
  entity: string;
  /** The enum field that holds the state. */
  field: string;
  initial: string;
  states: StateInfo[];
  transitions: Transition[];
}

export interface StateInfo {
  name: string;
  label?: string;
  /** Colour family of the badge. */
  tone?: Tone;
  /** No transition leaves a final state; it is reachable without being a dead end by mistake. */
  final?: boolean;
}

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';
export const TONES: readonly Tone[] = ['neutral', 'info', 'success', 'warning', 'danger'];

export interface Transition {
  name: string;
  label?: string;
  from: string[];
  to: string;
  /** Roles that may take it; absent means every role that may update the record. */
  roles?: string[];
  /** CEL over `record`, `user`, `now` and constants that must hold. */
  guard?: string;
  /** Message shown when the guard does not hold. */
  guardMessage?: string;
  /**
   * The problem code a refusal by the guard carries (SCREAMING_SNAKE, e.g. `CALL_CLOSED`), so that the
   * error catalogue (point 8) can tell one guard from another; without one it is `GUARD_FAILED`. Further
   * conditions of a transition, each with its own code, are rules of point 5 on it (`Rule.transitions`).
   */
  guardCode?: string;
  /** Name of the call that performs it; absent means an update of the state field. */
  call?: string;
  /** Question asked before it is taken. */
  confirm?: string;
  /** Side effects: field name -> CEL expression evaluated when the transition is taken. */
  set: Assignment[];
  /**
   * Changes to other records, made in the transition's own transaction, each as written:
   * `Product[l.product].stock -= l.quantity for l in record.lines` (see `parseUpdate`).
   */
  updates?: string[];
}

export interface Assignment {
  field: string;
  expression: string;
}

// ---------------------------------------------------------------------------------------------- 5. validation

export interface Validation {
  fields: FieldConstraints[];
  rules: Rule[];
}

/** A number, an ISO date, or the name of a constant (point 9). */
export type Amount =
  | { kind: 'number'; value: number }
  | { kind: 'date'; value: string }
  | { kind: 'constant'; name: string };

export interface FieldConstraints {
  entity: string;
  /** Path below the entity, e.g. `['address', 'postcode']` for a field of an embedded object. */
  field: string[];
  required?: boolean;
  /** Value for numbers and dates, length for text, count for lists, size in bytes for files. */
  min?: Amount;
  max?: Amount;
  /** ECMAScript regular expression (with the `u` flag) that text must match. */
  pattern?: string;
  unique?: boolean;
  /**
   * Unique together: no two records share this field's value and the values of these fields (the same
   * email may be a contact of two customers, not twice of one). Top-level fields only.
   */
  uniqueWith?: string[];
  message?: string;
}

/** A cross-field rule: a CEL expression over `record` (and `old`, `now`, constants) that must hold. */
export interface Rule {
  name?: string;
  entity: string;
  check: string;
  message: string;
  /** The field the message belongs to. */
  field?: string;
  /**
   * The problem code a refusal by this rule carries (SCREAMING_SNAKE, e.g. `CREDIT_LIMIT`), so that an
   * entry of the error catalogue (point 8) can match it; without one the refusal is `VALIDATION_FAILED`.
   */
  code?: string;
  /** When the rule applies: on create, on update (an edit, not a transition), or both. */
  on: Array<'create' | 'update'>;
  /** Transitions of the entity (point 4) the rule applies on besides, on the record as it will be. */
  transitions?: string[];
  /**
   * What the form says under the rule's field before anything is saved (`At most {MAX_OPEN_TICKETS}
   * open tickets per customer.`): the message says what went wrong, the hint what holds.
   */
  hint?: string;
}

// ---------------------------------------------------------------------------------------------- 6. roles

export interface Roles {
  signIn: SignIn;
  roles: Role[];
  /** Per role and entity: the actions, the condition and the field access. */
  grants: Grant[];
}

export type SignIn =
  | { kind: 'none' }
  | { kind: 'password'; call?: string; session: SessionStorage }
  | { kind: 'api-key'; in: 'header' | 'query' | 'cookie'; name: string; session: SessionStorage }
  | { kind: 'basic'; session: SessionStorage }
  /** A bearer token the person pastes (a personal access token, or one from a provider the client cannot reach). */
  | { kind: 'token'; session: SessionStorage }
  | {
      kind: 'oidc';
      issuer: string;
      clientId: string;
      scopes: string[];
      session: SessionStorage;
    }
  | {
      kind: 'oauth2';
      authorizationUrl: string;
      tokenUrl: string;
      clientId?: string;
      scopes: string[];
      session: SessionStorage;
    };
export type SignInKind = SignIn['kind'];
export const SIGN_IN_KINDS: readonly SignInKind[] = [
  'none',
  'password',
  'api-key',
  'basic',
  'token',
  'oidc',
  'oauth2',
];

/** Where the client keeps the token: memory (default) or the tab's session storage. Never local storage. */
export type SessionStorage = 'memory' | 'session';

export interface Role {
  name: string;
  label?: string;
  description?: string;
  /**
   * The screen of point 2 this role lands on at `/` and after signing in, in place of the product's home
   * (point 1), which may be a screen the role cannot open.
   */
  home?: string;
  /**
   * The role of people who have not signed in (a visitor): its grants, screens and home are theirs, and
   * the API serves its reads without a token. At most one role is it, and it may only read.
   */
  signedOut?: true;
  /**
   * Whether people of this role manage the people of the prototype API's own sign-in: list them, invite
   * them, change their role or attributes, deactivate them and end their sessions (docs/prototype-api.md).
   */
  managesPeople?: true;
}

export type CrudAction = 'read' | 'create' | 'update' | 'delete';
export const CRUD_ACTIONS: readonly CrudAction[] = ['read', 'create', 'update', 'delete'];

export interface Grant {
  role: string;
  entity: string;
  actions: CrudAction[];
  /** CEL over `record` and `user` that must hold for every action on the record as it is and as it will be (create, update before and after), e.g. own records only. */
  where?: string;
  /** Fields this role may not read (never sent to it). */
  hidden: string[];
  /**
   * Fields this role may not read while a condition over the record holds (an author's name while the
   * paper is in review): sent on a record only where it does not. Everywhere a value could be told
   * without its record (filters, sorting, search, names, figures, writes, imports) they are hidden.
   */
  hiddenWhile?: { fields: string[]; when: string };
  /** Fields this role may read but not write. */
  readOnly: string[];
}

// ---------------------------------------------------------------------------------------------- 7. calls

export interface Calls {
  /** Base URL of the real API, when there is one. */
  baseUrl?: string;
  items: Call[];
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type CallPurpose =
  | 'list'
  | 'get'
  | 'create'
  | 'update'
  | 'delete'
  | 'transition'
  | 'sign-in'
  /** Trades the session's refresh token (or its live token) for a fresh one, before the token runs out. */
  | 'refresh'
  | 'sign-out'
  | 'upload'
  | 'other';
export const CALL_PURPOSES: readonly CallPurpose[] = [
  'list',
  'get',
  'create',
  'update',
  'delete',
  'transition',
  'sign-in',
  'refresh',
  'sign-out',
  'upload',
  'other',
];

export interface Call {
  name: string;
  method: HttpMethod;
  /** Path template with `{param}` segments, relative to the base URL, e.g. `/orders/{id}`. */
  path: string;
  purpose: CallPurpose;
  entity?: string;
  description?: string;
  parameters: Parameter[];
  /** Request body: the entity's writable fields, or named fields of it. */
  body?: Body;
  response?: ResponseShape;
  pagination?: Pagination;
  /** Query parameter that carries the sort order, and the fields it accepts (see `SortStyle`). */
  sort?: { param: string; fields: string[]; style: SortStyle };
  /** Fields that can be filtered, each carried by a query parameter of the same name unless mapped. */
  filters: FilterParam[];
  /** The query parameter that takes a free-text search, and what it searches (see `searchFields`). */
  search?: Search;
}

/**
 * How a list call's query carries its sort order:
 * - `field,-field`: one parameter, keys comma-joined, `-` for descending (`sort=-placedOn,name`);
 * - `field:asc`: one parameter, keys comma-joined with their direction (`sort=placedOn:desc`);
 * - `param-per-field`: a parameter per key, named by `param` with `{field}` in it, whose value is the
 *   direction (`orderby.{field}` gives `orderby.placedOn=desc`, as Platformatic takes it).
 */
export type SortStyle = 'field,-field' | 'field:asc' | 'param-per-field';
export const SORT_STYLES: readonly SortStyle[] = ['field,-field', 'field:asc', 'param-per-field'];

export interface Search {
  param: string;
  /**
   * The fields the prototype API searches; absent means its documented default (`searchFields`). A real
   * API searches what it searches: the spec only names the parameter.
   */
  fields?: string[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  type: FieldType;
  description?: string;
}

export interface Body {
  entity: string;
  /** Only these fields are sent; absent means every writable field. */
  fields?: string[];
  encoding: 'json' | 'form' | 'multipart';
}

export interface ResponseShape {
  /** `one` record, a bare `array`, or an `envelope` with the records under `items`. */
  shape: 'one' | 'array' | 'envelope' | 'none';
  entity?: string;
  /** Envelope field holding the records. */
  items?: string;
  /** Envelope field holding the total count. */
  total?: string;
}

export type Pagination =
  | { style: 'page'; pageParam: string; sizeParam: string; maxSize?: Amount }
  | { style: 'offset'; offsetParam: string; limitParam: string; maxSize?: Amount }
  | { style: 'cursor'; cursorParam: string; sizeParam: string; nextField: string; maxSize?: Amount }
  | { style: 'link-header'; sizeParam?: string; maxSize?: Amount }
  | { style: 'none' };
export type PaginationStyle = Pagination['style'];
export const PAGINATION_STYLES: readonly PaginationStyle[] = [
  'page',
  'offset',
  'cursor',
  'link-header',
  'none',
];

export interface FilterParam {
  field: string;
  param: string;
  op: 'eq' | 'contains' | 'gte' | 'lte' | 'in';
  /**
   * How the value is written in the parameter, with `{value}` where it goes: `%{value}%` sends `%acme%`
   * for a server whose `like` takes SQL wildcards (Platformatic's `where.name.like`). Absent: as typed.
   */
  pattern?: string;
}

// ---------------------------------------------------------------------------------------------- 8. errors

export interface ErrorCatalogue {
  entries: ErrorEntry[];
}

export type ErrorAction =
  | 'retry'
  | 'sign-in'
  | 'go-back'
  | 'fix-field'
  | 'reload'
  | 'contact-support'
  | 'none';
export const ERROR_ACTIONS: readonly ErrorAction[] = [
  'retry',
  'sign-in',
  'go-back',
  'fix-field',
  'reload',
  'contact-support',
  'none',
];

export interface ErrorEntry {
  /** What the answer must have; every given part must match. */
  match: ErrorMatch;
  message: string;
  action: ErrorAction;
  /** The field the message belongs to, `Entity.field`. */
  field?: string;
}

export interface ErrorMatch {
  /** An exact status such as 404, or a class such as `5xx`. */
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`;
  /** RFC 9457 problem `type` URI. */
  type?: string;
  /** Application error code, e.g. `OUT_OF_STOCK`. */
  code?: string;
}

// ---------------------------------------------------------------------------------------------- 9. constants

export interface Constants {
  items: Constant[];
}

export interface Constant {
  name: string;
  value: number | string | boolean;
  /** Unit of the value: `rows`, `MB`, `seconds`, `EUR`, ... */
  unit?: string;
  /** What it means, in the product's words. */
  meaning?: string;
}
