import { exhaustiveSwitchError } from '../exhaustive';
import { loadSpec } from '../load';
import type {
  Amount,
  Call,
  Entity,
  ErrorEntry,
  FieldType,
  Grant,
  Model,
  Parameter,
  Point,
  PointKey,
  Roles,
  Screen,
  SignIn,
  StateMachine,
  Translations,
  Validation,
} from '../model';
import { CRUD_ACTIONS, POINT_KEYS } from '../model';

/** What `toMarkdown` gives: the document, and what of the model it could not write. */
export interface MarkdownResult {
  text: string;
  /**
   * One line per part of the model that the Markdown format cannot hold, `path: why`, with the model path
   * (`calls.items[listArticles].parameters`; array items by name where they have one). Empty when the
   * document loads back to exactly the model.
   */
  lost: string[];
}

/**
 * The nine-point Markdown document (the convention of `docs/spec-format.md`) that loads back to this
 * model: the Markdown-side inverse of `normalize`, as `toDocument` is the YAML-side one. The Markdown
 * format holds less than the model (call parameters, a pagination's maximum size, the sort parameter,
 * filter parameters, notes of point 1, ...); what it cannot hold is never dropped silently but listed in
 * `lost`. `lost` is exact: the document is loaded back and compared with the model.
 *
 * @example
 * ```ts
 * const { text, lost } = toMarkdown(loadSpec(yaml, { file: 'shop.yaml' }).model!);
 * loadSpec(text, { file: 'shop.md' }).model; // deep-equals the model when `lost` is empty
 * for (const item of lost) console.warn(`not written: ${item}`);
 * ```
 */
export function toMarkdown(model: Model): MarkdownResult {
  const known: Lost[] = [];
  const text = writeDocument(model, known);
  return { text, lost: verify(model, text, known) };
}

/** A known loss: the model path (as segments, to match differences below it) and why. */
interface Lost {
  path: string[];
  why: string;
}

export const SECTION_TITLES: Record<PointKey, string> = {
  product: 'What the product does and for whom',
  screens: 'Screens and routes',
  entities: 'Entities and fields',
  states: 'States and transitions',
  validation: 'Validation rules',
  roles: 'Roles and permissions',
  calls: 'The calls it makes',
  errors: 'The error catalogue',
  constants: 'Business constants and limits',
};

function writeDocument(model: Model, lost: Lost[]): string {
  const parts: string[] = [];
  if (model.title === undefined) {
    // The reader requires a title (`missing-title` is an error); the placeholder is reported as a change.
    lost.push({
      path: ['title'],
      why: 'the model has no title; the Markdown format needs one, "Untitled" is written',
    });
  }
  parts.push(`# ${heading(model.title ?? 'Untitled')}`);
  POINT_KEYS.forEach((key, index) => {
    parts.push(`## ${index + 1}. ${SECTION_TITLES[key]}`);
    const point = model[key] as Point<unknown>;
    const notes = model.notes?.[key];
    if (!point.shown) {
      parts.push(notShown(point.reason));
      // Anything after "not shown" is ignored by the reader, so notes of such a point have no place.
      if (notes) lost.push({ path: ['notes', key], why: 'a point not shown cannot have notes in Markdown' });
      return;
    }
    parts.push(...writePoint(model, key, lost));
  });
  return `${parts.join('\n\n')}\n`;
}

/** `Not shown.` or `Not shown: reason`; a reason is one line in Markdown (line breaks read as spaces). */
function notShown(reason: string | undefined): string {
  return reason === undefined ? 'Not shown.' : `Not shown: ${inline(reason)}`;
}

function writePoint(model: Model, key: PointKey, lost: Lost[]): string[] {
  const notes = model.notes?.[key];
  switch (key) {
    case 'product': {
      if (notes)
        lost.push({
          path: ['notes', 'product'],
          why: 'point 1 has no notes in Markdown (its prose is the description)',
        });
      return writeProduct(model.product);
    }
    case 'screens':
      return model.screens.shown ? [writeScreens(model.screens.items), ...prose(notes)] : [];
    case 'entities':
      if (!model.entities.shown) return [];
      if (model.entities.items.length === 0) {
        lost.push({
          path: ['entities'],
          why: 'a shown point 3 without entities cannot be written in Markdown (it reads as missing)',
        });
      }
      return [...prose(notes), ...model.entities.items.flatMap(writeEntity)];
    case 'states':
      if (!model.states.shown) return [];
      if (model.states.machines.length === 0) {
        lost.push({
          path: ['states'],
          why: 'a shown point 4 without state machines cannot be written in Markdown (it reads as missing)',
        });
      }
      return [...prose(notes), ...model.states.machines.flatMap(writeMachine)];
    case 'validation':
      return model.validation.shown ? [...writeValidation(model.validation), ...prose(notes)] : [];
    case 'roles':
      return model.roles.shown ? [...prose(notes), ...writeRoles(model.roles)] : [];
    case 'calls':
      return model.calls.shown ? [...writeCalls(model.calls, lost), ...prose(notes)] : [];
    case 'errors':
      return model.errors.shown ? [writeErrors(model.errors.entries), ...prose(notes)] : [];
    case 'constants':
      return model.constants.shown ? [writeConstants(model.constants.items), ...prose(notes)] : [];
    default:
      return exhaustiveSwitchError(key);
  }
}

/** Notes and descriptions are Markdown source already, kept as written. */
function prose(text: string | undefined): string[] {
  return text === undefined || text.trim() === '' ? [] : [text];
}

// ---------------------------------------------------------------------------------------------- 1. product

function writeProduct(product: Model['product']): string[] {
  if (!product.shown) return [];
  const blocks: string[] = [];
  if (product.summary !== undefined) blocks.push(paragraph(product.summary));
  const properties = propertyList([
    ['For', product.audience.length > 0 ? product.audience : undefined],
    ['Home', product.home],
    ['Language', product.language],
    ['Time zone', product.timeZone],
    ['Brand colour', product.theme?.primaryColor],
    ['Logo', product.theme?.logo],
    ['Font', product.theme?.font],
    ['Radius', product.theme?.radius === undefined ? undefined : String(product.theme.radius)],
    ['Density', product.theme?.density],
  ]);
  // A shown point needs some content; an empty "For" reads as no audience.
  if (properties) blocks.push(properties);
  else if (product.summary === undefined && product.description === undefined) blocks.push('- For:');
  if (product.description !== undefined) blocks.push(...separated(properties, product.description));
  const translations = writeTranslations(product.translations);
  if (translations) blocks.push(translations);
  return blocks;
}

/** The words in other languages: a table of each text as written, and a column per language. */
function writeTranslations(translations: Translations | undefined): string | undefined {
  const languages = Object.keys(translations ?? {});
  if (!translations || languages.length === 0) return undefined;
  const texts = [...new Set(languages.flatMap((language) => Object.keys(translations[language] ?? {})))];
  const rows = texts.map((source) => ({
    Text: inline(source),
    ...Object.fromEntries(languages.map((language) => [language, text(translations[language]?.[source])])),
  }));
  return table(['Text', ...languages], ['Text', ...languages], rows);
}

/**
 * Prose that follows a properties list: a list at its start would join the properties list, so an HTML
 * comment (ignored by the reader, and not part of any prose) ends the list first.
 */
function separated(properties: string | undefined, text: string): string[] {
  return properties !== undefined && /^\s*([-+*]|\d+[.)])(\s|$)/.test(text) ? ['<!-- -->', text] : [text];
}

// ---------------------------------------------------------------------------------------------- 2. screens

function writeScreens(screens: Screen[]): string {
  const rows = screens.map((screen) => {
    const cells: Cells = {
      Screen: inline(screen.name),
      Kind: screen.kind,
      Route: inline(screen.route),
      Title: text(screen.title),
      Roles: list(screen.roles),
      Hidden: yesNo(screen.hidden),
      Group: text(screen.group),
      Description: text(screen.description),
    };
    switch (screen.kind) {
      case 'list':
        cells.Entity = inline(screen.entity);
        cells.Columns = list(screen.columns);
        cells.Filters = list(screen.filters);
        cells.Sort = list(screen.sort.map((key) => (key.direction === 'desc' ? `-${key.field}` : key.field)));
        cells['Page size'] = amount(screen.pageSize);
        cells.Card = list(screen.card);
        break;
      case 'detail':
      case 'create':
      case 'edit':
        cells.Entity = inline(screen.entity);
        cells.Fields = list(screen.fields);
        break;
      case 'dashboard':
        cells.Tiles = list(screen.tiles);
        break;
      case 'sign-in':
        break;
      case 'custom':
        cells.Component = inline(screen.component);
        cells.Entity = text(screen.entity);
        break;
      default:
        return exhaustiveSwitchError(screen);
    }
    return cells;
  });
  const screensTable = table(
    [
      'Screen',
      'Kind',
      'Title',
      'Route',
      'Entity',
      'Columns',
      'Filters',
      'Sort',
      'Page size',
      'Card',
      'Fields',
      'Tiles',
      'Component',
      'Roles',
      'Hidden',
      'Group',
      'Description',
    ],
    ['Screen', 'Kind', 'Route'],
    rows,
  );
  const figures = writeFigures(screens);
  return figures === undefined ? screensTable : `${screensTable}\n\n${figures}`;
}

/** The figures table: the figures of every dashboard, each naming its dashboard. */
function writeFigures(screens: Screen[]): string | undefined {
  const rows = screens.flatMap((screen) =>
    screen.kind !== 'dashboard'
      ? []
      : screen.figures.map((figure) => ({
          Figure: inline(figure.name),
          Dashboard: inline(screen.name),
          Title: text(figure.title),
          Entity: inline(figure.entity),
          Measure: figure.measure,
          Field: text(figure.field),
          By: text(figure.by),
          Per: figure.per ?? '',
          Where: code(figure.where),
          Chart: figure.chart,
          Call: text(figure.call),
          Description: text(figure.description),
        })),
  );
  if (rows.length === 0) return undefined;
  return table(
    [
      'Figure',
      'Dashboard',
      'Title',
      'Entity',
      'Measure',
      'Field',
      'By',
      'Per',
      'Where',
      'Chart',
      'Call',
      'Description',
    ],
    ['Figure', 'Dashboard', 'Entity', 'Measure'],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------- 3. entities

function writeEntity(entity: Entity): string[] {
  const blocks = [`### ${heading(entity.name)}`];
  const properties = propertyList([
    ['Label', entity.label],
    ['Plural', entity.plural],
    ['Key', entity.key],
    ['Display', entity.display],
    ['Embedded', entity.embedded === undefined ? undefined : entity.embedded ? 'yes' : 'no'],
    ['Table', entity.table],
  ]);
  if (properties) blocks.push(properties);
  if (entity.description !== undefined) blocks.push(...separated(properties, entity.description));
  if (entity.fields.length > 0) {
    const rows = entity.fields.map((field) => ({
      Field: inline(field.name),
      Kind: inline(kind(field)),
      Label: text(field.label),
      Help: text(field.help),
      Format: text(field.format),
      Widget: text(field.widget),
      'Read only': yesNo(field.readOnly),
      'Write only': yesNo(field.writeOnly),
      Derived: code(field.derived),
      Default: defaultValue(field.default),
      'Set on create': code(field.setOnCreate),
      Numbering: code(field.numbering),
      'Copy from': code(field.copyFrom),
      Internal: yesNo(field.internal),
      Column: text(field.column),
      'Key of': field.keyOf === undefined ? '' : field.keyOf.map(inline).join(', '),
      Through: text(field.through),
      Group: text(field.group),
    }));
    blocks.push(
      table(
        [
          'Field',
          'Kind',
          'Label',
          'Help',
          'Format',
          'Widget',
          'Read only',
          'Write only',
          'Derived',
          'Default',
          'Set on create',
          'Numbering',
          'Copy from',
          'Internal',
          'Column',
          'Key of',
          'Through',
          'Group',
        ],
        ['Field', 'Kind'],
        rows,
      ),
    );
  }
  return blocks;
}

/** The kind grammar: `money EUR`, `enum: a (A), b`, `reference to Customer`, `list of object Line`. */
function kind(type: FieldType): string {
  switch (type.kind) {
    case 'text':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'date':
    case 'datetime':
    case 'markdown':
      return type.kind;
    case 'money':
      return type.currency === undefined ? 'money' : `money ${type.currency}`;
    case 'file':
      return type.accept === undefined ? 'file' : `file: ${type.accept.join(', ')}`;
    case 'enum':
      return `enum: ${type.values.map((v) => (v.label === undefined ? v.value : `${v.value} (${v.label})`)).join(', ')}`;
    case 'reference':
      return `reference to ${type.entity}`;
    case 'object':
      return `object ${type.entity}`;
    case 'list':
      return `list of ${kind(type.of)}`;
    default:
      return exhaustiveSwitchError(type);
  }
}

/** The reader takes a default by the field's kind (a number, yes/no or text); other JSON does not fit. */
function defaultValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return inline(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  return inline(JSON.stringify(value));
}

// ---------------------------------------------------------------------------------------------- 4. states

function writeMachine(machine: StateMachine): string[] {
  const blocks = [
    `### ${heading(`${machine.entity}.${machine.field}`)}`,
    `- Initial: ${inline(machine.initial)}`,
  ];
  // Always written: without a states table the states would come from the field's enum instead.
  blocks.push(
    table(
      ['State', 'Label', 'Tone', 'Final'],
      ['State'],
      machine.states.map((state) => ({
        State: inline(state.name),
        Label: text(state.label),
        Tone: state.tone ?? '',
        Final: yesNo(state.final),
      })),
    ),
  );
  if (machine.transitions.length > 0) {
    const rows = machine.transitions.map((t) => ({
      Transition: inline(t.name),
      Label: text(t.label),
      From: list(t.from),
      To: inline(t.to),
      Roles: list(t.roles),
      Guard: code(t.guard),
      'Guard message': text(t.guardMessage),
      'Guard code': text(t.guardCode),
      Call: text(t.call),
      Confirm: text(t.confirm),
      Set: code(t.set.length > 0 ? t.set.map((a) => `${a.field} = ${a.expression}`).join('; ') : undefined),
      Updates: code(t.updates?.length ? t.updates.join('; ') : undefined),
    }));
    blocks.push(
      table(
        [
          'Transition',
          'Label',
          'From',
          'To',
          'Roles',
          'Guard',
          'Guard message',
          'Guard code',
          'Call',
          'Confirm',
          'Set',
          'Updates',
        ],
        ['Transition', 'From', 'To'],
        rows,
      ),
    );
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------- 5. validation

function writeValidation(validation: Validation): string[] {
  const blocks: string[] = [];
  // A shown point needs a table even when it is empty.
  if (validation.fields.length > 0 || validation.rules.length === 0) {
    const rows = validation.fields.map((c) => ({
      Field: inline([c.entity, ...c.field].join('.')),
      Required: yesNo(c.required),
      Min: amount(c.min),
      Max: amount(c.max),
      Pattern: code(c.pattern),
      Unique: yesNo(c.unique),
      'Unique with': list(c.uniqueWith),
      Message: text(c.message),
    }));
    blocks.push(
      table(
        ['Field', 'Required', 'Min', 'Max', 'Pattern', 'Unique', 'Unique with', 'Message'],
        ['Field'],
        rows,
      ),
    );
  }
  if (validation.rules.length > 0) {
    const rows = validation.rules.map((rule) => ({
      Rule: text(rule.name),
      Entity: inline(rule.entity),
      Check: code(rule.check),
      Message: inline(rule.message),
      Field: text(rule.field),
      Code: text(rule.code),
      // Empty means both, the default; the order of the words is kept otherwise.
      On:
        rule.on.length === 2 &&
        rule.on[0] === 'create' &&
        rule.on[1] === 'update' &&
        !rule.transitions?.length
          ? ''
          : list([...rule.on, ...(rule.transitions ?? [])]),
      Hint: text(rule.hint),
    }));
    blocks.push(
      table(
        ['Rule', 'Entity', 'Check', 'Message', 'Field', 'Code', 'On', 'Hint'],
        ['Rule', 'Entity', 'Check', 'Message'],
        rows,
      ),
    );
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------- 6. roles

const SIGN_IN_WORDS: Record<SignIn['kind'], string> = {
  none: 'none',
  password: 'password',
  'api-key': 'API key',
  basic: 'basic',
  token: 'access token',
  oidc: 'OpenID Connect',
  oauth2: 'OAuth 2',
};

function writeRoles(roles: Roles): string[] {
  const signIn = roles.signIn;
  const entries: Array<[string, string | string[] | undefined]> = [['Kind', SIGN_IN_WORDS[signIn.kind]]];
  switch (signIn.kind) {
    case 'none':
      break;
    case 'password':
      entries.push(['Call', signIn.call]);
      break;
    case 'api-key':
      entries.push(['In', signIn.in], ['Name', signIn.name]);
      break;
    case 'basic':
    case 'token':
      break;
    case 'oidc':
      entries.push(
        ['Issuer', signIn.issuer],
        ['Client id', signIn.clientId],
        ['Scopes', nonEmpty(signIn.scopes)],
      );
      break;
    case 'oauth2':
      entries.push(
        ['Authorization URL', signIn.authorizationUrl],
        ['Token URL', signIn.tokenUrl],
        ['Client id', signIn.clientId],
        ['Scopes', nonEmpty(signIn.scopes)],
      );
      break;
    default:
      return exhaustiveSwitchError(signIn);
  }
  if (signIn.kind !== 'none') entries.push(['Session', signIn.session]);
  const blocks = ['### Sign-in', propertyList(entries) ?? ''];
  if (roles.roles.length > 0 || roles.grants.length > 0) blocks.push('### Roles');
  if (roles.roles.length > 0) {
    const rows = roles.roles.map((role) => ({
      Role: inline(role.name),
      Label: text(role.label),
      Description: text(role.description),
      Home: text(role.home),
      'Signed out': role.signedOut ? 'yes' : '',
      'Manages people': role.managesPeople ? 'yes' : '',
    }));
    const columns = ['Role', 'Label', 'Description', 'Home', 'Signed out'];
    // Written only when a role manages people, so that other specifications read as they always did.
    if (roles.roles.some((role) => role.managesPeople)) columns.push('Manages people');
    blocks.push(table(columns, ['Role'], rows));
  }
  if (roles.grants.length > 0) {
    blocks.push(
      table(
        ['Role', 'Entity', 'Actions', 'Where', 'Hidden', 'Hidden while', 'Read only'],
        ['Role', 'Entity', 'Actions'],
        roles.grants.map(grantRow),
      ),
    );
  }
  return blocks;
}

function grantRow(grant: Grant): Cells {
  const all =
    grant.actions.length === CRUD_ACTIONS.length && grant.actions.every((a, i) => a === CRUD_ACTIONS[i]);
  return {
    Role: inline(grant.role),
    Entity: inline(grant.entity),
    Actions: all ? 'all' : list(grant.actions),
    Where: code(grant.where),
    Hidden: list(grant.hidden),
    'Hidden while': grant.hiddenWhile
      ? `${list(grant.hiddenWhile.fields)}: ${code(grant.hiddenWhile.when)}`
      : '',
    'Read only': list(grant.readOnly),
  };
}

// ---------------------------------------------------------------------------------------------- 7. calls

function writeCalls(calls: Model['calls'], lost: Lost[]): string[] {
  if (!calls.shown) return [];
  const blocks: string[] = [];
  if (calls.baseUrl !== undefined) blocks.push(`- Base URL: ${inline(calls.baseUrl)}`);
  const rows = calls.items.map((call) => {
    const at = ['calls', 'items', call.name];
    if (!sameParameters(call.parameters, impliedParameters(call.path))) {
      lost.push({
        path: [...at, 'parameters'],
        why: 'Markdown has no column for parameters; only those named in the path ({name}, required text) are kept',
      });
    }
    const pagination = call.pagination as (Call['pagination'] & { maxSize?: Amount }) | undefined;
    if (pagination?.maxSize !== undefined) {
      lost.push({ path: [...at, 'pagination', 'maxSize'], why: 'Markdown cannot write a maximum page size' });
    }
    if (call.sort && call.sort.param !== 'sort') {
      lost.push({
        path: [...at, 'sort', 'param'],
        why: `Markdown cannot name the sort parameter ("${call.sort.param}"; it reads as "sort")`,
      });
    }
    if (call.sort && call.sort.style !== 'field,-field') {
      lost.push({
        path: [...at, 'sort', 'style'],
        why: `Markdown cannot write the sort style "${call.sort.style}"`,
      });
    }
    call.filters.forEach((filter, i) => {
      if (filter.param !== filter.field) {
        lost.push({
          path: [...at, 'filters', String(i), 'param'],
          why: `Markdown cannot name a filter's parameter ("${filter.param}" for "${filter.field}")`,
        });
      }
      if (filter.pattern !== undefined) {
        lost.push({
          path: [...at, 'filters', String(i), 'pattern'],
          why: `Markdown cannot write how a filter's value is written ("${filter.pattern}" for "${filter.field}")`,
        });
      }
    });
    const response = call.response;
    if (response && response.entity === undefined && response.shape !== 'none' && call.entity !== undefined) {
      lost.push({
        path: [...at, 'response', 'entity'],
        why: "a response without an entity reads as the call's entity in Markdown",
      });
    }
    return {
      Call: inline(call.name),
      Method: call.method,
      Path: inline(call.path),
      Purpose: call.purpose,
      Entity: text(call.entity),
      Description: text(call.description),
      Body: text(call.body && body(call.body)),
      Response: text(response && responseCell(response)),
      Pagination: text(call.pagination && paginationCell(call.pagination)),
      Sort: list(call.sort?.fields),
      Filters: list(call.filters.map((f) => (f.op === 'eq' ? f.field : `${f.field} (${f.op})`))),
      Search: text(
        call.search &&
          (call.search.fields ? `${call.search.param}: ${call.search.fields.join(', ')}` : call.search.param),
      ),
    };
  });
  blocks.push(
    table(
      [
        'Call',
        'Method',
        'Path',
        'Purpose',
        'Entity',
        'Description',
        'Body',
        'Response',
        'Pagination',
        'Sort',
        'Filters',
        'Search',
      ],
      ['Call', 'Method', 'Path', 'Purpose'],
      rows,
    ),
  );
  return blocks;
}

/** The parameters `normalize` derives from a path template: the only ones Markdown can give. */
function impliedParameters(path: string): Parameter[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((match) => ({
    name: match[1] ?? '',
    in: 'path',
    required: true,
    type: { kind: 'text' },
  }));
}

function sameParameters(a: Parameter[], b: Parameter[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function body(b: NonNullable<Call['body']>): string {
  const encoding = b.encoding === 'json' ? '' : ` (${b.encoding})`;
  const fields = b.fields === undefined ? '' : `: ${b.fields.join(', ')}`;
  return `${b.entity}${encoding}${fields}`;
}

function responseCell(r: NonNullable<Call['response']>): string {
  const names = [r.items, r.total].filter((n): n is string => n !== undefined);
  return `${r.shape}${r.entity === undefined ? '' : ` ${r.entity}`}${names.length > 0 ? `: ${names.join(', ')}` : ''}`;
}

function paginationCell(p: NonNullable<Call['pagination']>): string {
  switch (p.style) {
    case 'page':
      return `page: ${p.pageParam}, ${p.sizeParam}`;
    case 'offset':
      return `offset: ${p.offsetParam}, ${p.limitParam}`;
    case 'cursor':
      return `cursor: ${p.cursorParam}, ${p.sizeParam}, ${p.nextField}`;
    case 'link-header':
      return p.sizeParam === undefined ? 'link-header' : `link-header: ${p.sizeParam}`;
    case 'none':
      return 'none';
    default:
      return exhaustiveSwitchError(p);
  }
}

// ---------------------------------------------------------------------------------------------- 8. errors

function writeErrors(entries: ErrorEntry[]): string {
  const rows = entries.map((entry) => ({
    Status: entry.match.status === undefined ? '' : inline(String(entry.match.status)),
    Type: text(entry.match.type),
    Code: text(entry.match.code),
    Field: text(entry.field),
    Message: inline(entry.message),
    // `none` is the default; the other actions read back from their words (`sign in` -> sign-in).
    Action: entry.action === 'none' ? '' : entry.action.replaceAll('-', ' '),
  }));
  return table(['Status', 'Type', 'Code', 'Field', 'Message', 'Action'], ['Message'], rows);
}

// ---------------------------------------------------------------------------------------------- 9. constants

function writeConstants(items: NonNullable<Extract<Model['constants'], { shown: true }>>['items']): string {
  const rows = items.map((c) => ({
    Name: inline(c.name),
    Value: inline(String(c.value)),
    Unit: text(c.unit),
    Meaning: text(c.meaning),
  }));
  return table(['Name', 'Value', 'Unit', 'Meaning'], ['Name', 'Value'], rows);
}

// ---------------------------------------------------------------------------------------------- blocks and cells

type Cells = Record<string, string>;

/**
 * A GFM table with the columns that some row fills, plus the required ones (a missing required column is
 * an error even when the table has no rows). Cells are already Markdown.
 */
function table(columns: string[], required: string[], rows: Cells[]): string {
  const used = columns.filter((c) => required.includes(c) || rows.some((row) => (row[c] ?? '') !== ''));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(used),
    line(used.map(() => '---')),
    ...rows.map((row) => line(used.map((c) => row[c] ?? ''))),
  ].join('\n');
}

/** A properties list of the given entries that have a value; undefined when none has. */
function propertyList(entries: Array<[string, string | string[] | undefined]>): string | undefined {
  const items: string[] = [];
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    if (typeof value === 'string') {
      items.push(`- ${key}: ${inline(value)}`);
    } else if (value.every(listSafe)) {
      items.push(`- ${key}: ${value.map(inline).join(', ')}`);
    } else {
      // Items with commas or brackets are written one per line, which the reader takes as they are.
      items.push(`- ${key}:\n${value.map((v) => `  - ${inline(v)}`).join('\n')}`);
    }
  }
  return items.length > 0 ? items.join('\n') : undefined;
}

function nonEmpty(values: string[]): string[] | undefined {
  return values.length > 0 ? values : undefined;
}

/** An item that survives the comma list grammar (split at commas outside brackets, trimmed). */
function listSafe(value: string): boolean {
  return value !== '' && value === value.trim() && !/[,()[\]{}]/.test(value);
}

function text(value: string | undefined): string {
  return value === undefined ? '' : inline(value);
}

function list(values: readonly string[] | undefined): string {
  return values === undefined ? '' : values.map(inline).join(', ');
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? '' : value ? 'yes' : 'no';
}

function amount(value: Amount | undefined): string {
  if (value === undefined) return '';
  switch (value.kind) {
    case 'number':
      return String(value.value);
    case 'date':
      return inline(value.value);
    case 'constant':
      return inline(value.name);
    default:
      return exhaustiveSwitchError(value);
  }
}

/**
 * An expression in backticks, as the convention asks, when a code span can hold it exactly: in a table a
 * `|` is written `\|` also in code, but a `\` before a `|` cannot be (it would read as an escape), and a
 * backtick would end the span. Otherwise it is written as escaped text, which reads back the same.
 */
function code(value: string | undefined): string {
  if (value === undefined) return '';
  if (value === '' || value !== value.trim() || /[`\n\r]|\\\|/.test(value)) return inline(value);
  return `\`${value.replaceAll('|', '\\|')}\``;
}

/**
 * Text that Markdown's inline parsing reads back as the same characters: what could start a construct
 * (emphasis, code, links, HTML, entities) and every `|` (a table cell's end) is escaped with a backslash,
 * which the reader un-escapes. A line break cannot be written inside a cell or list item; it becomes a
 * space (the round trip reports it).
 */
function inline(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    const prev = value.charAt(i - 1);
    const next = value.charAt(i + 1);
    if (c === '\\' || c === '`' || c === '*' || c === '[' || c === ']' || c === '|') out += `\\${c}`;
    else if (c === '_') out += /[A-Za-z0-9]/.test(prev) && /[A-Za-z0-9]/.test(next) ? c : '\\_';
    else if (c === '<') out += /[A-Za-z/!?]/.test(next) ? '\\<' : c;
    else if (c === '&') out += /[#A-Za-z]/.test(next) ? '\\&' : c;
    else if (c === '\n' || c === '\r') out += ' ';
    else out += c;
  }
  return out;
}

/** Inline text at the start of a block, where `#`, `>`, `-`, `+`, `=` and `1.` would start other blocks. */
function paragraph(value: string): string {
  const escaped = inline(value);
  if (/^[#>+=~-]/.test(escaped)) return `\\${escaped}`;
  const ordered = /^(\d+)([.)])/.exec(escaped);
  return ordered ? `${ordered[1]}\\${escaped.slice(ordered[1]?.length)}` : escaped;
}

/** A heading's text: a `#` anywhere could be read as the closing sequence. */
function heading(value: string): string {
  return paragraph(value).replace(/(?<!\\)#/g, '\\#');
}

// ---------------------------------------------------------------------------------------------- the round trip

/**
 * Loads the document back and lists every difference from the model: the known losses with their
 * reasons, then anything else (text with line breaks, an empty list that reads as none, ...), so that
 * `lost` never misses what the format could not hold.
 */
function verify(model: Model, text: string, known: Lost[]): string[] {
  const result = loadSpec(text, { file: 'model.md' });
  const lost = known.map((item) => `${pathText(model, item.path)}: ${item.why}`);
  const back = result.model;
  if (!back) {
    const errors = result.issues.filter((i) => i.severity === 'error').map((i) => i.message);
    return [...lost, `(document): the Markdown does not load back (${errors.join('; ')})`];
  }
  const differences: string[][] = [];
  diff(model, back, [], differences);
  for (const path of differences) {
    if (known.some((item) => startsWith(namedPath(model, path), item.path))) continue;
    lost.push(
      `${pathText(model, namedPath(model, path))}: not kept by the Markdown format (reads back as ${preview(get(back, path))})`,
    );
  }
  return lost;
}

function diff(a: unknown, b: unknown, path: string[], out: string[][]): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(path);
    else
      a.forEach((item, i) => {
        diff(item, b[i], [...path, String(i)], out);
      });
    return;
  }
  if (isObject(a) && isObject(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) diff(a[key], b[key], [...path, key], out);
    return;
  }
  out.push(path);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function get(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

/** Array indices replaced by the item's name where it has one, as the known losses are written. */
function namedPath(model: Model, path: readonly string[]): string[] {
  const out: string[] = [];
  let value: unknown = model;
  for (const key of path) {
    const next = isObject(value) ? value[key] : undefined;
    out.push(Array.isArray(value) && isObject(next) && typeof next.name === 'string' ? next.name : key);
    value = next;
  }
  return out;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => p === path[i]);
}

/** `calls.items[listArticles].parameters`: array items in brackets, by name or index. */
function pathText(model: Model, path: readonly string[]): string {
  let out = '';
  let value: unknown = model;
  for (const key of path) {
    if (Array.isArray(value)) {
      const item = value.find((v) => isObject(v) && v.name === key) ?? value[Number(key)];
      out += `[${key}]`;
      value = item;
    } else {
      out += out === '' ? key : `.${key}`;
      value = isObject(value) ? value[key] : undefined;
    }
  }
  return out;
}

function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}
