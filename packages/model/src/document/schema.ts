import * as z from 'zod';
import {
  CALL_PURPOSES,
  CRUD_ACTIONS,
  ERROR_ACTIONS,
  FIGURE_CHARTS,
  FIGURE_MEASURES,
  FIGURE_PERIODS,
  HTTP_METHODS,
  PAGINATION_STYLES,
  POINT_KEYS,
  SCREEN_KINDS,
  TONES,
} from '../model';

// The authoring format (YAML and JSON, and what the Markdown loader builds) is validated with Zod, and the
// published JSON Schema is generated from these same definitions, so the two cannot drift apart. Zod must
// not compile validators with `new Function`: the client runs under a CSP without `unsafe-eval`.
z.config({ jitless: true });

const identifier = z
  .string()
  .regex(
    /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_-]*$/,
    'a name starts with a letter and has only letters, digits, _ and -',
  );
/** Entities and fields are named in CEL expressions (`record.unitPrice`), where a `-` would read as minus. */
const dataName = z
  .string()
  .regex(
    /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]*$/,
    'an entity or field name has only letters, digits and _ (no -)',
  );
const constantName = z
  .string()
  .regex(/^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]*$/, 'a constant name has only letters, digits and _');

/**
 * `not shown`, in any case, optionally followed by an explanation: `Not shown: no workflows yet.`
 * Spelled without regex flags because JSON Schema patterns carry none.
 */
export const NOT_SHOWN_PATTERN = /^\s*[Nn][Oo][Tt]\s+[Ss][Hh][Oo][Ww][Nn](?![A-Za-z0-9_])[\s\S]*$/;

/** The explanation after "not shown", if any: `Not shown: no workflows yet.` -> `no workflows yet.` */
export function notShownReason(text: string): string | undefined {
  const rest = text
    .trim()
    .replace(/^not\s+shown/i, '')
    .replace(/^[\s.:;,\u2013\u2014-]+/, '')
    .trim();
  return rest === '' ? undefined : rest;
}
const notShown = z
  .string()
  .regex(NOT_SHOWN_PATTERN, 'a point is either its content or the words "not shown"')
  .meta({ description: 'The point is not shown: "not shown", optionally followed by an explanation.' });

const point = <T extends z.ZodType>(content: T) => z.union([notShown, content]);

const stringList = z.array(z.string());
const identifierList = z.array(identifier);
/** A number, an ISO date, or the name of a constant from point 9. */
const amount = z
  .union([z.number(), z.string().min(1)])
  .meta({ description: 'A number, an ISO date (2025-01-31), or the name of a constant (point 9).' });

// ------------------------------------------------------------------------------------- 1. product

const product = z
  .strictObject({
    summary: z.string().optional().meta({ description: 'One sentence: what the product does.' }),
    description: z.string().optional().meta({ description: 'Markdown; rendered safely, never as HTML.' }),
    audience: stringList.optional().meta({ description: 'For whom: the people who use it.' }),
    home: identifier.optional().meta({ description: 'Name of the screen shown at /.' }),
    language: z.string().optional().meta({ description: 'BCP 47 language of the texts, e.g. en.' }),
    timeZone: z
      .string()
      .optional()
      .meta({ description: 'IANA time zone in which `today` starts (Europe/Amsterdam); UTC when absent.' }),
    brandColor: z.string().optional().meta({ description: 'The brand: a CSS colour such as #0b7285.' }),
    logo: z.string().optional().meta({
      description: "The brand: an image on the client's origin (/brand/logo.svg) or a data:image/ URL.",
    }),
    font: z.string().optional().meta({ description: 'The brand: a CSS font-family list.' }),
    radius: z.number().optional().meta({ description: 'The brand: corner radius in pixels, 0 to 32.' }),
    density: z
      .enum(['compact', 'comfortable'])
      .optional()
      .meta({ description: 'The brand: space between things.' }),
    translations: z
      .record(
        z
          .string()
          .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language is a BCP 47 tag such as fr or pt-BR'),
        z.record(z.string().min(1), z.string().min(1)),
      )
      .optional()
      .meta({
        description:
          'The specification’s words in other languages: by language (fr), each text as written here and its translation.',
      }),
  })
  .meta({ title: '1. What the product does and for whom' });

// ------------------------------------------------------------------------------------- 2. screens

const figure = z
  .strictObject({
    title: z.string().optional(),
    description: z.string().optional(),
    entity: identifier.meta({ description: 'The entity whose records are counted, summed or averaged.' }),
    measure: z.enum(FIGURE_MEASURES).meta({ description: 'count, sum or average.' }),
    field: identifier.optional().meta({ description: 'sum, average: the number or money field.' }),
    by: identifier.optional().meta({
      description: 'Grouped by this field: an enum, a boolean, a reference, or a date (with per).',
    }),
    per: z
      .enum(FIGURE_PERIODS)
      .optional()
      .meta({ description: 'Groups a date field by day, week or month.' }),
    where: z.string().optional().meta({
      description: 'Only records that meet this condition on record (CEL), e.g. record.status == "paid".',
    }),
    chart: z
      .enum(FIGURE_CHARTS)
      .optional()
      .meta({ description: 'figure, bar, line or donut; by default a figure, or a bar (line per period).' }),
    call: identifier.optional().meta({
      description: 'A GET call of point 7 that answers it, for an API other than the prototype one.',
    }),
  })
  .meta({ title: 'Figure' });

const screen = z
  .strictObject({
    kind: z.enum(SCREEN_KINDS),
    title: z.string().optional(),
    description: z.string().optional(),
    route: z.string().meta({ description: 'Route pattern with :param segments, e.g. /orders/:id.' }),
    entity: identifier.optional(),
    roles: identifierList.optional().meta({ description: 'Roles that may see it; absent means everyone.' }),
    hidden: z.boolean().optional().meta({ description: 'Left out of the navigation.' }),
    group: z.string().optional().meta({
      description: 'The navigation group it is listed under; screens of a group are listed together.',
    }),
    columns: identifierList.optional().meta({ description: 'list: the fields shown as columns.' }),
    filters: identifierList.optional().meta({ description: 'list: the fields the user may filter on.' }),
    sort: z
      .array(
        z.string().regex(/^-?[A-Za-z_][A-Za-z0-9_]*$/, 'a sort key is a field name, with - for descending'),
      )
      .optional()
      .meta({ description: 'list: sortable fields; -field is descending; the first is the default.' }),
    pageSize: amount.optional(),
    card: identifierList.optional().meta({
      description: "list: the fields a phone's card shows under the record's title and state, in order.",
    }),
    fields: identifierList.optional().meta({ description: 'detail, create, edit: the fields, in order.' }),
    tiles: identifierList.optional().meta({ description: 'dashboard: list screens shown as tiles.' }),
    figures: z
      .record(identifier, figure)
      .optional()
      .meta({ description: 'dashboard: aggregates drawn as figures or charts, by name.' }),
    component: z.string().optional().meta({ description: 'custom: the registered component.' }),
  })
  .meta({ title: 'Screen' });

const screens = z.record(identifier, screen).meta({ title: '2. Screens and routes' });

// ------------------------------------------------------------------------------------- 3. entities

const enumValue = z.union([z.string(), z.strictObject({ value: z.string(), label: z.string().optional() })]);

const typeShapes = {
  text: { kind: z.literal('text') },
  number: { kind: z.literal('number') },
  integer: { kind: z.literal('integer') },
  boolean: { kind: z.literal('boolean') },
  date: { kind: z.literal('date') },
  datetime: { kind: z.literal('datetime') },
  markdown: { kind: z.literal('markdown') },
  money: {
    kind: z.literal('money'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 code')
      .optional(),
  },
  file: { kind: z.literal('file'), accept: stringList.optional() },
  enum: { kind: z.literal('enum'), values: z.array(enumValue).min(1) },
  reference: { kind: z.literal('reference'), entity: identifier },
  object: { kind: z.literal('object'), entity: identifier },
} as const;

export interface TypeDocument {
  kind: string;
  [key: string]: unknown;
}

const listShape = {
  kind: z.literal('list'),
  get of(): z.ZodType<TypeDocument> {
    return typeDocument;
  },
};

const typeDocument: z.ZodType<TypeDocument> = z.discriminatedUnion('kind', [
  ...Object.values(typeShapes).map((shape) => z.strictObject(shape)),
  z.strictObject(listShape),
] as unknown as [z.ZodObject, ...z.ZodObject[]]) as unknown as z.ZodType<TypeDocument>;

const fieldCommon = {
  label: z.string().optional(),
  help: z.string().optional(),
  format: z.string().optional().meta({
    description:
      'Checked: email, url, uri, uri-reference, uri-template, uuid, hostname, ipv4, ipv6, time, duration, regex, json-pointer, relative-json-pointer, byte (base64). Shown only: phone, percent, color, password, ...',
  }),
  widget: z.string().optional().meta({ description: 'A built-in or registered custom widget.' }),
  readOnly: z.boolean().optional(),
  writeOnly: z.boolean().optional(),
  derived: z.string().optional().meta({ description: 'CEL expression that computes the value.' }),
  default: z.json().optional(),
  setOnCreate: z.string().optional().meta({
    description: 'CEL over user and now, set by the API on create (read-only fields), e.g. user.id.',
  }),
  numbering: z.string().optional().meta({
    description: 'Numbers new records: ORD-{seq:6} gives ORD-000123 (read-only text fields).',
  }),
  group: z.string().min(1).optional().meta({
    description: "The section the field is shown in on a record's page and in its forms, e.g. Contact.",
  }),
  internal: z.boolean().optional().meta({
    description: 'Not shown on details and forms unless a screen lists it (an external id, a sync token).',
  }),
  column: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_$]*$/, 'a column name')
    .optional()
    .meta({ description: "The column of the entity's existing table that holds the field." }),
  keyOf: z.array(identifier).min(2).optional().meta({
    description: "The fields whose values make the record's key (a composite key), on the key field.",
  }),
  through: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/, 'table or schema.table')
    .optional()
    .meta({ description: "A list of references kept in a team's join table (a many-to-many)." }),
  copyFrom: z.string().optional().meta({
    description:
      'reference.field: the form copies the value from the record that reference (of the same record) points at, when it is chosen, e.g. product.price.',
  }),
};

const field = z
  .discriminatedUnion('kind', [
    ...Object.values(typeShapes).map((shape) => z.strictObject({ ...shape, ...fieldCommon })),
    z.strictObject({ ...listShape, ...fieldCommon }),
  ] as unknown as [z.ZodObject, ...z.ZodObject[]])
  .meta({ title: 'Field' });

const entity = z
  .strictObject({
    label: z.string().optional(),
    plural: z.string().optional(),
    description: z.string().optional(),
    key: identifier.optional().meta({ description: 'The field that identifies a record.' }),
    display: identifier.optional().meta({ description: 'The field that names a record.' }),
    embedded: z.boolean().optional().meta({ description: 'A value type stored inside other records.' }),
    table: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/, 'table or schema.table')
      .optional()
      .meta({
        description:
          'An existing table the records live in (table or schema.table): serve --db works on it in place.',
      }),
    fields: z.record(dataName, field),
  })
  .meta({ title: 'Entity' });

const entities = z.record(dataName, entity).meta({ title: '3. Entities and fields' });

// ------------------------------------------------------------------------------------- 4. states

const stateInfo = z.strictObject({
  label: z.string().optional(),
  tone: z.enum(TONES).optional(),
  final: z.boolean().optional(),
});

const transition = z.strictObject({
  label: z.string().optional(),
  from: z.union([identifier, identifierList.min(1)]),
  to: identifier,
  roles: identifierList.optional(),
  guard: z.string().optional().meta({ description: 'CEL over record, user, now and constants.' }),
  guardMessage: z.string().optional(),
  guardCode: z.string().optional().meta({
    description: 'The problem code a refusal by the guard carries, in SCREAMING_SNAKE, e.g. CALL_CLOSED.',
  }),
  call: identifier.optional(),
  confirm: z.string().optional().meta({ description: 'A question asked before the transition.' }),
  set: z.record(identifier, z.string()).optional().meta({ description: 'field: CEL expression' }),
  updates: z.array(z.string()).optional().meta({
    description:
      'Changes to other records in the same transaction: Product[l.product].stock -= l.quantity for l in record.lines',
  }),
});

const stateMachine = z
  .strictObject({
    initial: identifier,
    states: z.union([identifierList, z.record(identifier, stateInfo)]).optional(),
    transitions: z.record(identifier, transition),
  })
  .meta({ title: 'State machine' });

const states = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/, 'Entity.field'), stateMachine)
  .meta({ title: '4. States and transitions', description: 'Keyed by Entity.field of the state field.' });

// ------------------------------------------------------------------------------------- 5. validation

const fieldConstraints = z.strictObject({
  required: z.boolean().optional(),
  min: amount.optional(),
  max: amount.optional(),
  pattern: z.string().optional(),
  unique: z.boolean().optional(),
  uniqueWith: z.array(dataName).optional().meta({
    description: 'Unique together with these fields of the same entity: customer, for a contact email.',
  }),
  message: z.string().optional(),
});

const rule = z.strictObject({
  name: identifier.optional(),
  entity: identifier,
  check: z.string().meta({
    description:
      'CEL over record, old, user, now, today and constants (and other records through count, sum, lookup, …); true means valid.',
  }),
  message: z
    .string()
    .meta({ description: 'May name values: {MAX_ORDER_LINES}, {record.field}, {user.email}.' }),
  field: z
    .string()
    .regex(
      /^(?!__proto__(\.|$))[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/,
      'a field, or a path through lists and objects such as lines.quantity',
    )
    .optional()
    .meta({ description: 'The field the message belongs to; lines.quantity puts it on each line.' }),
  hint: z.string().optional().meta({
    description: 'Said under the field in forms, before saving: At most {MAX_OPEN_TICKETS} open tickets.',
  }),
  code: z
    .string()
    .optional()
    .meta({ description: 'The problem code a refusal carries, in SCREAMING_SNAKE, e.g. CREDIT_LIMIT.' }),
  on: z.array(identifier).optional().meta({
    description:
      'When the rule applies: create, update (an edit), or the name of a transition of the entity, on the record as it leaves it; both create and update when absent.',
  }),
});

const validation = z
  .strictObject({
    fields: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/, 'Entity.field'),
        fieldConstraints,
      )
      .optional(),
    rules: z.array(rule).optional(),
  })
  .meta({ title: '5. Validation rules' });

// ------------------------------------------------------------------------------------- 6. roles

const session = z.enum(['memory', 'session']).optional();
const signIn = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({ kind: z.literal('password'), call: identifier.optional(), session }),
  z.strictObject({
    kind: z.literal('api-key'),
    in: z.enum(['header', 'query', 'cookie']).optional(),
    name: z.string(),
    session,
  }),
  z.strictObject({ kind: z.literal('basic'), session }),
  z.strictObject({ kind: z.literal('token'), session }),
  z.strictObject({
    kind: z.literal('oidc'),
    issuer: z.url(),
    clientId: z.string(),
    scopes: stringList.optional(),
    session,
  }),
  z.strictObject({
    kind: z.literal('oauth2'),
    authorizationUrl: z.url(),
    tokenUrl: z.url(),
    clientId: z.string().optional(),
    scopes: stringList.optional(),
    session,
  }),
]);

const crudAction = z.enum(CRUD_ACTIONS);
const grant = z.union([
  z.literal('all'),
  z.array(crudAction),
  z.strictObject({
    actions: z.union([z.literal('all'), z.array(crudAction)]),
    where: z.string().optional().meta({ description: 'CEL over record and user, e.g. own records only.' }),
    hidden: identifierList.optional().meta({ description: 'Fields this role may not read.' }),
    hiddenWhile: z
      .strictObject({
        fields: identifierList,
        when: z.string().meta({ description: 'CEL over record and user.' }),
      })
      .optional()
      .meta({ description: 'Fields this role may not read while the condition holds for the record.' }),
    readOnly: identifierList.optional().meta({ description: 'Fields this role may read but not write.' }),
  }),
]);

const role = z.strictObject({
  label: z.string().optional(),
  description: z.string().optional(),
  home: identifier.optional().meta({
    description: "The screen this role lands on at / and after signing in, in place of the product's home.",
  }),
  signedOut: z.boolean().optional().meta({
    description:
      'The role of people who have not signed in: its reads are served without a token. At most one role; it may only read.',
  }),
  managesPeople: z.boolean().optional().meta({
    description:
      'Whether this role manages people: lists them, invites them by email, changes their role or attributes, deactivates them and ends their sessions.',
  }),
  can: z.record(identifier, grant).optional().meta({ description: 'Per entity: what this role may do.' }),
});

const roles = z
  .strictObject({
    signIn,
    roles: z.record(identifier, role),
  })
  .meta({ title: '6. Roles and permissions' });

// ------------------------------------------------------------------------------------- 7. calls

const parameter = z.strictObject({
  in: z.enum(['path', 'query', 'header', 'cookie']),
  required: z.boolean().optional(),
  type: typeDocument.optional(),
  description: z.string().optional(),
});

const pagination = z.union([
  z.enum(PAGINATION_STYLES),
  z.strictObject({
    style: z.enum(PAGINATION_STYLES),
    pageParam: z.string().optional(),
    sizeParam: z.string().optional(),
    offsetParam: z.string().optional(),
    limitParam: z.string().optional(),
    cursorParam: z.string().optional(),
    nextField: z.string().optional(),
    maxSize: amount.optional(),
  }),
]);

const call = z
  .strictObject({
    method: z.enum(HTTP_METHODS),
    path: z.string().meta({ description: 'Path template with {param} segments, e.g. /orders/{id}.' }),
    purpose: z.enum(CALL_PURPOSES).optional(),
    entity: identifier.optional(),
    description: z.string().optional(),
    parameters: z.record(z.string().regex(/^(?!__proto__$)/, 'not a reserved name'), parameter).optional(),
    body: z
      .union([
        identifier,
        z.strictObject({
          entity: identifier,
          fields: identifierList.optional(),
          encoding: z.enum(['json', 'form', 'multipart']).optional(),
        }),
      ])
      .optional(),
    response: z
      .strictObject({
        shape: z.enum(['one', 'array', 'envelope', 'none']),
        entity: identifier.optional(),
        items: z.string().optional(),
        total: z.string().optional(),
      })
      .optional(),
    pagination: pagination.optional(),
    sort: z
      .strictObject({
        param: z.string().optional(),
        fields: identifierList,
        style: z.enum(['field,-field', 'field:asc', 'param-per-field']).optional(),
      })
      .optional(),
    filters: z
      .array(
        z.union([
          identifier,
          z.strictObject({
            field: identifier,
            param: z.string().optional(),
            op: z.enum(['eq', 'contains', 'gte', 'lte', 'in']).optional(),
            pattern: z.string().optional(),
          }),
        ]),
      )
      .optional(),
    search: z
      .union([
        z.string(),
        z.strictObject({
          param: z.string(),
          fields: identifierList.optional(),
        }),
      ])
      .optional()
      .meta({
        description:
          'list: the query parameter of a free-text search ("q"), or { param, fields } to name what the prototype API searches.',
      }),
  })
  .meta({ title: 'Call' });

const calls = z
  .strictObject({
    baseUrl: z
      .union([
        z.url(),
        z
          .string()
          .regex(
            /^\/(?!\/)[^\s?#]*$/,
            'a base URL is a full URL (https://api.example.com/v1) or a path (/api/v1)',
          ),
      ])
      .optional()
      .meta({
        description: 'Where the calls are: a full URL, or a path on the client’s own origin (/api/v1).',
      }),
    operations: z.record(identifier, call),
  })
  .meta({ title: '7. The calls it makes' });

// ------------------------------------------------------------------------------------- 8. errors

const errorEntry = z
  .strictObject({
    status: z
      .union([z.int().min(100).max(599), z.string().regex(/^[1-5]xx$/, 'a status class such as 5xx')])
      .optional(),
    type: z.string().optional().meta({ description: 'RFC 9457 problem type URI.' }),
    code: z.string().optional(),
    message: z.string(),
    action: z.enum(ERROR_ACTIONS).optional(),
    field: z.string().optional().meta({ description: 'Entity.field the message belongs to.' }),
  })
  .meta({ title: 'Error catalogue entry' });

const errors = z.array(errorEntry).meta({ title: '8. The error catalogue' });

// ------------------------------------------------------------------------------------- 9. constants

const constantValue = z.union([z.number(), z.string(), z.boolean()]);
const constant = z.union([
  constantValue,
  z.strictObject({ value: constantValue, unit: z.string().optional(), meaning: z.string().optional() }),
]);
const constants = z.record(constantName, constant).meta({ title: '9. Business constants and limits' });

// ------------------------------------------------------------------------------------- the document

/**
 * The whole authoring document. Each of the nine keys holds the point's content or `not shown`.
 *
 * @example
 * ```yaml
 * title: Empty shell
 * product: not shown
 * screens: not shown
 * # ... the other seven keys likewise
 * ```
 */
export const documentSchema = z
  .strictObject({
    $schema: z.string().optional(),
    title: z.string().optional().meta({ description: "The product's name." }),
    product: point(product).optional(),
    screens: point(screens).optional(),
    entities: point(entities).optional(),
    states: point(states).optional(),
    validation: point(validation).optional(),
    roles: point(roles).optional(),
    calls: point(calls).optional(),
    errors: point(errors).optional(),
    constants: point(constants).optional(),
    notes: z.partialRecord(z.enum(POINT_KEYS), z.string()).optional().meta({
      description: 'Prose about a point that belongs to none of its items (Markdown keeps it here).',
    }),
  })
  .meta({
    title: 'Ninefold specification',
    description:
      'A web client described by nine points. Each point holds its content or the words "not shown".',
  });

export type DocumentInput = z.infer<typeof documentSchema>;
export type ProductDocument = z.infer<typeof product>;
export type ScreenDocument = z.infer<typeof screen>;
export type FigureDocument = z.infer<typeof figure>;
export type EntityDocument = z.infer<typeof entity>;
export type FieldDocument = z.infer<typeof field>;
export type StateMachineDocument = z.infer<typeof stateMachine>;
export type ValidationDocument = z.infer<typeof validation>;
export type RolesDocument = z.infer<typeof roles>;
export type GrantDocument = z.infer<typeof grant>;
export type CallDocument = z.infer<typeof call>;
export type ErrorEntryDocument = z.infer<typeof errorEntry>;
export type ConstantDocument = z.infer<typeof constant>;

/** Keys a document may have at the top, for "did you mean" hints. */
export const DOCUMENT_KEYS = ['$schema', 'title', ...POINT_KEYS, 'notes'] as const;

/**
 * The JSON Schema of the authoring format, generated from the Zod definitions.
 *
 * @example
 * ```ts
 * writeFileSync('schema/ninefold.schema.json', JSON.stringify(documentJsonSchema(), null, 2));
 * ```
 */
export function documentJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(documentSchema, { target: 'draft-2020-12', unrepresentable: 'any' });
  return { ...schema, $id: 'https://ninefold.dev/schema/ninefold.schema.json' };
}
