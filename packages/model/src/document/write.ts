import { exhaustiveSwitchError } from '../exhaustive';
import type {
  Amount,
  Call,
  Constant,
  Entity,
  ErrorEntry,
  Field,
  FieldType,
  Grant,
  Model,
  Pagination,
  Point,
  Roles,
  Screen,
  SignIn,
  StateMachine,
  Validation,
} from '../model';
import type {
  CallDocument,
  ConstantDocument,
  DocumentInput,
  EntityDocument,
  ErrorEntryDocument,
  GrantDocument,
  RolesDocument,
  ScreenDocument,
  StateMachineDocument,
  TypeDocument,
  ValidationDocument,
} from './schema';

/**
 * The authoring document (the YAML/JSON format) that loads back to this model: the inverse of
 * `normalize`. Written out, it is a specification a person can read and edit, e.g. after an OpenAPI
 * import. Names must be unique within their point, as `checkModel` requires; a later duplicate would
 * replace an earlier one.
 *
 * @example
 * ```ts
 * const text = yamlText(toDocument(model));
 * normalize(toDocument(model)).model; // deep-equals `model`
 * ```
 */
export function toDocument(model: Model): DocumentInput {
  const doc: DocumentInput = {
    ...(model.title === undefined ? {} : { title: model.title }),
    product: point(model.product, (product) => ({
      ...optional('summary', product.summary),
      ...optional('description', product.description),
      ...(product.audience.length ? { audience: product.audience } : {}),
      ...optional('home', product.home),
      ...optional('language', product.language),
      ...optional('timeZone', product.timeZone),
      ...optional('brandColor', product.theme?.primaryColor),
      ...optional('logo', product.theme?.logo),
      ...optional('font', product.theme?.font),
      ...optional('radius', product.theme?.radius),
      ...optional('density', product.theme?.density),
      ...optional('translations', product.translations),
    })),
    screens: point(model.screens, (screens) => byName(screens.items, fromScreen)),
    entities: point(model.entities, (entities) => byName(entities.items, fromEntity)),
    states: point(model.states, (states) =>
      Object.fromEntries(
        states.machines.map((machine) => [`${machine.entity}.${machine.field}`, fromMachine(machine)]),
      ),
    ),
    validation: point(model.validation, fromValidation),
    roles: point(model.roles, fromRoles),
    calls: point(model.calls, (calls) => ({
      ...optional('baseUrl', calls.baseUrl),
      operations: byName(calls.items, fromCall),
    })),
    errors: point(model.errors, (errors) => errors.entries.map(fromErrorEntry)),
    constants: point(model.constants, (constants) => byName(constants.items, fromConstant)),
  } as DocumentInput;
  if (model.notes && Object.keys(model.notes).length > 0) doc.notes = { ...model.notes };
  return doc;
}

/** A point not shown is written as the words, with the author's reason after them. */
function point<T, D>(value: Point<T>, convert: (content: T) => D): D | string {
  if (!value.shown) return value.reason ? `Not shown: ${value.reason}` : 'Not shown';
  return convert(value);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function byName<T extends { name: string }, D>(items: T[], convert: (item: T) => D): Record<string, D> {
  const map: Record<string, D> = {};
  for (const item of items) map[item.name] = convert(item);
  return map;
}

function fromAmount(amount: Amount): number | string {
  switch (amount.kind) {
    case 'number':
      return amount.value;
    case 'date':
      return amount.value;
    case 'constant':
      return amount.name;
    default:
      return exhaustiveSwitchError(amount);
  }
}

function fromScreen(screen: Screen): ScreenDocument {
  const base = {
    kind: screen.kind,
    ...optional('title', screen.title),
    ...optional('description', screen.description),
    route: screen.route,
    ...optional('roles', screen.roles),
    ...optional('hidden', screen.hidden),
    ...optional('group', screen.group),
  };
  switch (screen.kind) {
    case 'list':
      return {
        ...base,
        entity: screen.entity,
        columns: screen.columns,
        filters: screen.filters,
        sort: screen.sort.map((key) => (key.direction === 'desc' ? `-${key.field}` : key.field)),
        ...optional('pageSize', screen.pageSize && fromAmount(screen.pageSize)),
        ...optional('card', screen.card),
      } as ScreenDocument;
    case 'detail':
    case 'create':
    case 'edit':
      return { ...base, entity: screen.entity, ...optional('fields', screen.fields) } as ScreenDocument;
    case 'dashboard':
      return {
        ...base,
        tiles: screen.tiles,
        ...(screen.figures.length > 0
          ? { figures: Object.fromEntries(screen.figures.map(({ name, ...figure }) => [name, figure])) }
          : {}),
      } as ScreenDocument;
    case 'sign-in':
      return base as ScreenDocument;
    case 'custom':
      return { ...base, component: screen.component, ...optional('entity', screen.entity) } as ScreenDocument;
    default:
      return exhaustiveSwitchError(screen);
  }
}

function fromEntity(entity: Entity): EntityDocument {
  return {
    ...optional('label', entity.label),
    ...optional('plural', entity.plural),
    ...optional('description', entity.description),
    ...optional('key', entity.key),
    ...optional('display', entity.display),
    ...optional('embedded', entity.embedded),
    ...optional('table', entity.table),
    fields: byName(entity.fields, fromField),
  } as EntityDocument;
}

function fromField(field: Field): TypeDocument {
  return {
    ...fromType(field),
    ...optional('label', field.label),
    ...optional('help', field.help),
    ...optional('format', field.format),
    ...optional('widget', field.widget),
    ...optional('readOnly', field.readOnly),
    ...optional('writeOnly', field.writeOnly),
    ...optional('derived', field.derived),
    ...optional('default', field.default),
    ...optional('setOnCreate', field.setOnCreate),
    ...optional('numbering', field.numbering),
    ...optional('copyFrom', field.copyFrom),
    ...optional('internal', field.internal),
    ...optional('column', field.column),
    ...optional('keyOf', field.keyOf),
    ...optional('through', field.through),
    ...optional('group', field.group),
  } as TypeDocument;
}

function fromType(type: FieldType): TypeDocument {
  switch (type.kind) {
    case 'text':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'date':
    case 'datetime':
    case 'markdown':
      return { kind: type.kind };
    case 'money':
      return { kind: type.kind, ...optional('currency', type.currency) };
    case 'file':
      return { kind: type.kind, ...optional('accept', type.accept) };
    case 'enum':
      return {
        kind: type.kind,
        values: type.values.map((value) => (value.label === undefined ? value.value : { ...value })),
      };
    case 'reference':
    case 'object':
      return { kind: type.kind, entity: type.entity };
    case 'list':
      return { kind: type.kind, of: fromType(type.of) };
    default:
      return exhaustiveSwitchError(type);
  }
}

function fromMachine(machine: StateMachine): StateMachineDocument {
  return {
    initial: machine.initial,
    states: Object.fromEntries(
      machine.states.map((state) => [
        state.name,
        {
          ...optional('label', state.label),
          ...optional('tone', state.tone),
          ...optional('final', state.final),
        },
      ]),
    ),
    transitions: byName(machine.transitions, (transition) => ({
      ...optional('label', transition.label),
      from: transition.from,
      to: transition.to,
      ...optional('roles', transition.roles),
      ...optional('guard', transition.guard),
      ...optional('guardMessage', transition.guardMessage),
      ...optional('guardCode', transition.guardCode),
      ...optional('call', transition.call),
      ...optional('confirm', transition.confirm),
      ...(transition.set.length
        ? { set: Object.fromEntries(transition.set.map((effect) => [effect.field, effect.expression])) }
        : {}),
      ...(transition.updates?.length ? { updates: transition.updates } : {}),
    })),
  } as StateMachineDocument;
}

function fromValidation(validation: Validation): ValidationDocument {
  return {
    fields: Object.fromEntries(
      validation.fields.map((constraints) => [
        [constraints.entity, ...constraints.field].join('.'),
        {
          ...optional('required', constraints.required),
          ...optional('min', constraints.min && fromAmount(constraints.min)),
          ...optional('max', constraints.max && fromAmount(constraints.max)),
          ...optional('pattern', constraints.pattern),
          ...optional('unique', constraints.unique),
          ...optional('uniqueWith', constraints.uniqueWith),
          ...optional('message', constraints.message),
        },
      ]),
    ),
    rules: validation.rules.map((rule) => ({
      ...optional('name', rule.name),
      entity: rule.entity,
      check: rule.check,
      message: rule.message,
      ...optional('field', rule.field),
      ...optional('code', rule.code),
      ...optional('hint', rule.hint),
      on: [...rule.on, ...(rule.transitions ?? [])],
    })),
  } as ValidationDocument;
}

function fromRoles(roles: Roles): RolesDocument {
  return {
    signIn: fromSignIn(roles.signIn),
    roles: Object.fromEntries(
      roles.roles.map((role) => {
        const grants = roles.grants.filter((grant) => grant.role === role.name);
        return [
          role.name,
          {
            ...optional('label', role.label),
            ...optional('description', role.description),
            ...optional('home', role.home),
            ...(role.signedOut ? { signedOut: true } : {}),
            ...(role.managesPeople ? { managesPeople: true } : {}),
            ...(grants.length
              ? { can: Object.fromEntries(grants.map((grant) => [grant.entity, fromGrant(grant)])) }
              : {}),
          },
        ];
      }),
    ),
  } as RolesDocument;
}

function fromSignIn(signIn: SignIn): RolesDocument['signIn'] {
  switch (signIn.kind) {
    case 'none':
    case 'password':
    case 'api-key':
    case 'basic':
    case 'token':
    case 'oidc':
    case 'oauth2':
      return { ...signIn } as RolesDocument['signIn'];
    default:
      return exhaustiveSwitchError(signIn);
  }
}

function fromGrant(grant: Grant): GrantDocument {
  return {
    actions: grant.actions,
    ...optional('where', grant.where),
    ...(grant.hidden.length ? { hidden: grant.hidden } : {}),
    ...optional('hiddenWhile', grant.hiddenWhile),
    ...(grant.readOnly.length ? { readOnly: grant.readOnly } : {}),
  } as GrantDocument;
}

function fromCall(call: Call): CallDocument {
  return {
    method: call.method,
    path: call.path,
    purpose: call.purpose,
    ...optional('entity', call.entity),
    ...optional('description', call.description),
    ...(call.parameters.length
      ? {
          parameters: Object.fromEntries(
            call.parameters.map((parameter) => [
              parameter.name,
              {
                in: parameter.in,
                required: parameter.required,
                type: fromType(parameter.type),
                ...optional('description', parameter.description),
              },
            ]),
          ),
        }
      : {}),
    ...optional(
      'body',
      call.body && {
        entity: call.body.entity,
        ...optional('fields', call.body.fields),
        encoding: call.body.encoding,
      },
    ),
    ...optional('response', call.response && { ...call.response }),
    ...optional('pagination', call.pagination && fromPagination(call.pagination)),
    ...optional('sort', call.sort && { ...call.sort }),
    ...(call.filters.length ? { filters: call.filters.map((filter) => ({ ...filter })) } : {}),
    ...optional(
      'search',
      call.search &&
        (call.search.fields
          ? { param: call.search.param, fields: [...call.search.fields] }
          : call.search.param),
    ),
  } as CallDocument;
}

function fromPagination(pagination: Pagination): NonNullable<CallDocument['pagination']> {
  const { maxSize, ...rest } = pagination as Pagination & { maxSize?: Amount };
  return { ...rest, ...optional('maxSize', maxSize && fromAmount(maxSize)) } as NonNullable<
    CallDocument['pagination']
  >;
}

function fromErrorEntry(entry: ErrorEntry): ErrorEntryDocument {
  return {
    ...optional('status', entry.match.status),
    ...optional('type', entry.match.type),
    ...optional('code', entry.match.code),
    message: entry.message,
    action: entry.action,
    ...optional('field', entry.field),
  } as ErrorEntryDocument;
}

function fromConstant(constant: Constant): ConstantDocument {
  return {
    value: constant.value,
    ...optional('unit', constant.unit),
    ...optional('meaning', constant.meaning),
  } as ConstantDocument;
}
