import type { Call, Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { type OpenApi3Like, toModel } from '../src/to-model';

// Shapes that real servers' own descriptions have and that a mock never shows wrong (issue 39): the
// documents here are written after a database-first REST server's (trailing slashes, a PUT and a DELETE
// on the collection that change every record they match, `orderby.<field>` and `where.<field>.<op>`).
const ok = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const query = (name: string, schema: unknown) => ({ name, in: 'query', required: false, schema });
const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const body = { required: true, content: { 'application/json': { schema: ref('PartInput') } } };

function partsDocument(): OpenApi3Like {
  const listParameters = [
    query('limit', { type: 'integer' }),
    query('offset', { type: 'integer' }),
    ...['id', 'name', 'price'].map((field) =>
      query(`orderby.${field}`, { type: 'string', enum: ['asc', 'desc'] }),
    ),
    ...['name', 'price'].flatMap((field) =>
      ['eq', 'neq', 'like', 'in', 'gte'].map((op) => query(`where.${field}.${op}`, { type: 'string' })),
    ),
  ];
  return {
    openapi: '3.0.3',
    info: { title: 'Parts' },
    servers: [{ url: '/' }],
    paths: {
      '/parts/': {
        get: {
          operationId: 'getParts',
          parameters: listParameters,
          responses: { 200: ok({ type: 'array', items: ref('Part') }) },
        },
        post: { operationId: 'createPart', requestBody: body, responses: { 200: ok(ref('Part')) } },
        put: {
          operationId: 'updateParts',
          summary: 'Update parts.',
          parameters: [query('where.name.eq', { type: 'string' })],
          requestBody: body,
          responses: { 200: ok({ type: 'array', items: ref('Part') }) },
        },
        delete: { operationId: 'deleteParts', responses: { 200: ok({ type: 'array', items: ref('Part') }) } },
      },
      '/parts/{id}': {
        get: { operationId: 'getPartById', parameters: [id], responses: { 200: ok(ref('Part')) } },
        put: {
          operationId: 'updatePart',
          parameters: [id],
          requestBody: body,
          responses: { 200: ok(ref('Part')) },
        },
        delete: { operationId: 'deletePart', parameters: [id], responses: { 200: ok(ref('Part')) } },
      },
    },
    components: {
      schemas: {
        Part: {
          type: 'object',
          properties: { id: { type: 'integer' }, name: { type: 'string' }, price: { type: 'number' } },
        },
        PartInput: {
          type: 'object',
          properties: { id: { type: 'integer' }, name: { type: 'string' }, price: { type: 'number' } },
        },
      },
    },
  } as OpenApi3Like;
}

const callsOf = (model: Model): Call[] => (model.calls.shown ? model.calls.items : []);
const byName = (model: Model, name: string) => callsOf(model).find((call) => call.name === name);

describe('calls of a real database-first REST server', () => {
  const { model, report } = toModel(partsDocument(), { file: 'parts.json' });
  const reportText = JSON.stringify(report);

  it('never take a PUT or DELETE on the collection as one record’s update or delete, and say why', () => {
    expect(byName(model, 'updateParts')?.purpose).toBe('other');
    expect(byName(model, 'deleteParts')?.purpose).toBe('other');
    expect(byName(model, 'updatePart')?.purpose).toBe('update');
    expect(byName(model, 'deletePart')?.purpose).toBe('delete');
    const updates = callsOf(model).filter((call) => call.purpose === 'update' || call.purpose === 'delete');
    for (const call of updates) expect(call.path).toMatch(/\{id\}$/);
    expect(reportText).toContain('PUT /parts/ has purpose \\"other\\": it writes to the collection path');
  });

  it('read a trailing slash as the list’s own path: the list route is what its item routes extend', () => {
    const routes = model.screens.shown ? model.screens.items.map((screen) => screen.route) : [];
    expect(routes).toEqual(expect.arrayContaining(['/parts', '/parts/new', '/parts/:id', '/parts/:id/edit']));
    // The call keeps the path the server answers at.
    expect(byName(model, 'getParts')?.path).toBe('/parts/');
  });

  it('sort with a parameter per field and filter with where.<field>.<op>', () => {
    const list = byName(model, 'getParts');
    expect(list?.sort).toEqual({
      param: 'orderby.{field}',
      fields: ['id', 'name', 'price'],
      style: 'param-per-field',
    });
    expect(list?.filters).toEqual([
      { field: 'name', param: 'where.name.eq', op: 'eq' },
      // LIKE takes SQL wildcards: "contains" is the value between two `%`, for text only.
      { field: 'name', param: 'where.name.like', op: 'contains', pattern: '%{value}%' },
      { field: 'name', param: 'where.name.in', op: 'in' },
      { field: 'name', param: 'where.name.gte', op: 'gte' },
      { field: 'price', param: 'where.price.eq', op: 'eq' },
      { field: 'price', param: 'where.price.in', op: 'in' },
      { field: 'price', param: 'where.price.gte', op: 'gte' },
    ]);
    const screen = model.screens.shown ? model.screens.items.find((s) => s.route === '/parts') : undefined;
    expect(screen?.kind === 'list' && screen.filters).toEqual(['name', 'price']);
    expect(reportText).toContain('where.<field>.<op> as Platformatic names them');
  });

  it('take any scalar field for a free-text sort parameter, "-" first for descending', () => {
    const document = partsDocument();
    const get = (document.paths as Record<string, Record<string, { parameters: unknown[] }>>)['/parts/']?.get;
    if (get === undefined) throw new Error('fixture changed');
    get.parameters = [query('sort', { type: 'string' }), query('filter[name]', { type: 'string' })];
    const list = byName(toModel(document, { file: 'parts.json' }).model, 'getParts');
    expect(list?.sort).toEqual({ param: 'sort', fields: ['id', 'name', 'price'], style: 'field,-field' });
    expect(list?.filters).toEqual([{ field: 'name', param: 'filter[name]', op: 'eq' }]);
  });
});

describe('the base URL of a server without a public address', () => {
  const baseOf = (url: string) => {
    const document = { ...partsDocument(), servers: [{ url }] };
    const { model, report } = toModel(document, { file: 'parts.json' });
    return { base: model.calls.shown ? model.calls.baseUrl : undefined, report: JSON.stringify(report) };
  };

  it('gets a scheme when it names a host without one, and the report says so', () => {
    expect(baseOf('127.0.0.1:8156').base).toBe('http://127.0.0.1:8156');
    expect(baseOf('//api.example.com/v1').base).toBe('https://api.example.com/v1');
    expect(baseOf('127.0.0.1:8156').report).toContain('names a host without a scheme, so http is assumed');
  });

  it('keeps a path or a full URL as it is', () => {
    expect(baseOf('/api/v1').base).toBe('/api/v1');
    expect(baseOf('https://api.example.com').base).toBe('https://api.example.com');
  });
});

// After a headless CMS's description (Directus): bodies that take one record or a batch, references
// written as an id or the record expanded, a sign-in call answering a token, and two security schemes
// of which the operations name one.
function eventsDocument(): OpenApi3Like {
  const envelope = (name: string) =>
    ok({ type: 'object', properties: { data: { type: 'array', items: ref(name) } } });
  const one = (name: string) => ok({ type: 'object', properties: { data: ref(name) } });
  const oneOrMany = (name: string) => ({
    content: { 'application/json': { schema: { oneOf: [{ type: 'array', items: ref(name) }, ref(name)] } } },
  });
  const itemId = {
    name: 'id',
    in: 'path',
    required: true,
    schema: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
  };
  const collection = (name: string, schema: string) => ({
    [`/items/${name}`]: {
      get: {
        operationId: `read${schema}`,
        security: [{ Auth: [] }],
        parameters: [query('sort', { type: 'array', items: { type: 'string' } })],
        responses: { 200: envelope(schema) },
      },
      post: {
        operationId: `create${schema}`,
        security: [{ Auth: [] }],
        requestBody: oneOrMany(schema),
        responses: { 200: one(schema) },
      },
      patch: {
        operationId: `update${schema}Many`,
        requestBody: oneOrMany(schema),
        responses: { 200: envelope(schema) },
      },
      delete: { operationId: `delete${schema}Many`, responses: { 200: ok({}) } },
    },
    [`/items/${name}/{id}`]: {
      get: { operationId: `readSingle${schema}`, parameters: [itemId], responses: { 200: one(schema) } },
      patch: {
        operationId: `updateSingle${schema}`,
        parameters: [itemId],
        requestBody: { content: { 'application/json': { schema: ref(schema) } } },
        responses: { 200: one(schema) },
      },
      delete: {
        operationId: `deleteSingle${schema}`,
        parameters: [itemId],
        responses: { 204: { description: 'done' } },
      },
    },
  });
  return {
    openapi: '3.0.1',
    info: { title: 'Events' },
    servers: [{ url: 'http://127.0.0.1:8055' }],
    paths: {
      '/auth/login': {
        post: {
          operationId: 'login',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['email', 'password'],
                  properties: { email: { type: 'string' }, password: { type: 'string', format: 'password' } },
                },
              },
            },
          },
          responses: {
            200: ok({
              type: 'object',
              properties: {
                data: {
                  type: 'object',
                  properties: { access_token: { type: 'string' }, expires: { type: 'integer' } },
                },
              },
            }),
          },
        },
      },
      '/auth/refresh': {
        post: {
          operationId: 'refresh',
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { refresh_token: { type: 'string' } } },
              },
            },
          },
          responses: { 200: ok({ type: 'object' }) },
        },
      },
      // A record's action named like a renewal is no session's.
      '/caches/refresh': {
        post: { operationId: 'refreshCaches', responses: { 204: { description: 'done' } } },
      },
      ...collection('events', 'ItemsEvents'),
      ...collection('signups', 'ItemsSignups'),
    },
    components: {
      securitySchemes: {
        KeyAuth: { type: 'apiKey', in: 'query', name: 'access_token' },
        Auth: { type: 'apiKey', in: 'header', name: 'Authorization' },
      },
      schemas: {
        ItemsEvents: {
          type: 'object',
          required: ['title'],
          properties: {
            id: { type: 'integer' },
            title: { type: 'string' },
            places: { type: 'integer', nullable: true },
          },
        },
        ItemsSignups: {
          type: 'object',
          required: ['name'],
          properties: {
            id: { type: 'integer' },
            name: { type: 'string' },
            event: { nullable: true, oneOf: [{ type: 'integer' }, ref('ItemsEvents')] },
          },
        },
      },
    },
  } as OpenApi3Like;
}

describe('calls of a real headless CMS', () => {
  const { model, report } = toModel(eventsDocument(), { file: 'events.json' });
  const reportText = JSON.stringify(report);
  const entity = (name: string) =>
    model.entities.shown ? model.entities.items.find((e) => e.name === name) : undefined;

  it('take the record of a body that is one record or a batch, so the create has a form', () => {
    expect(byName(model, 'createItemsSignups')?.body?.entity).toBe('ItemsSignups');
    const screens = model.screens.shown ? model.screens.items : [];
    expect(screens.some((screen) => screen.kind === 'create' && screen.entity === 'ItemsSignups')).toBe(true);
    expect(reportText).toContain('takes one record or an array of them (oneOf/anyOf): the client sends one');
  });

  it('read a field that is an id or the record expanded as a reference', () => {
    expect(entity('ItemsSignups')?.fields.find((field) => field.name === 'event')).toMatchObject({
      kind: 'reference',
      entity: 'ItemsEvents',
    });
    expect(reportText).toContain('a choice of a key and the record it names (oneOf/anyOf) is a reference');
  });

  it('never take the PATCH or DELETE of a whole collection for one record', () => {
    expect(byName(model, 'updateItemsSignupsMany')?.purpose).toBe('other');
    expect(byName(model, 'deleteItemsSignupsMany')?.purpose).toBe('other');
    expect(byName(model, 'updateSingleItemsSignups')?.purpose).toBe('update');
  });

  it('sort by a free-text list parameter on the record’s scalar fields', () => {
    expect(byName(model, 'readItemsEvents')?.sort).toEqual({
      param: 'sort',
      fields: ['id', 'title', 'places'],
      style: 'field,-field',
    });
  });

  it('sign in through the document’s own login call with the scheme the operations name, never a key in the URL', () => {
    expect(model.roles.shown && model.roles.signIn).toEqual({
      kind: 'password',
      call: 'login',
      session: 'memory',
    });
    expect(reportText).toContain(
      '\\"Auth\\" is the Authorization header, so the token it answers is sent as a bearer token',
    );
    expect(reportText).toContain('security scheme \\"KeyAuth\\" is not used');
  });

  it('take the POST at /auth/refresh for the session’s renewal, and only a path that says so', () => {
    expect(byName(model, 'refresh')?.purpose).toBe('refresh');
    expect(byName(model, 'refreshCaches')?.purpose).not.toBe('refresh');
  });

  it('say which calls need each scheme it does not use, and how to choose it instead', () => {
    const skipped = report.points.roles.find((entry) =>
      entry.message.startsWith('security scheme "KeyAuth"'),
    );
    expect(skipped?.message).toBe(
      'security scheme "KeyAuth" is not used: the client signs in one way, "Auth"; no call names it; choose it with --sign-in KeyAuth',
    );
  });
});

describe('a security scheme chosen at import', () => {
  it('signs in with the chosen scheme over the one the operations name, and says so', () => {
    const { model, report, issues } = toModel(eventsDocument(), {
      file: 'events.json',
      signInScheme: 'KeyAuth',
    });
    expect(issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(model.roles.shown && model.roles.signIn).toEqual({
      kind: 'api-key',
      in: 'query',
      name: 'access_token',
      session: 'session',
    });
    const messages = report.points.roles.map((entry) => entry.message);
    expect(messages).toContain('"KeyAuth" is the scheme chosen at import (--sign-in)');
    expect(messages.find((message) => message.startsWith('security scheme "Auth"'))).toBe(
      'security scheme "Auth" is not used: the client signs in one way, "KeyAuth"; 4 calls name it (readItemsEvents, createItemsEvents, readItemsSignups, createItemsSignups); choose it with --sign-in Auth',
    );
  });

  it('is an error when the document has no such scheme, naming the ones it has', () => {
    const { issues } = toModel(eventsDocument(), { file: 'events.json', signInScheme: 'Bearer' });
    expect(issues).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        message: '--sign-in: the document has no security scheme "Bearer"; it has "KeyAuth", "Auth".',
      }),
    );
  });
});

describe('references from OpenAPI links', () => {
  it('make a field that fills another record’s item path a reference, on the record and its body', () => {
    const document = partsDocument();
    const components = document.components as {
      schemas: Record<string, { properties: Record<string, unknown> }>;
    };
    components.schemas.Supplier = { properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    for (const name of ['Part', 'PartInput']) {
      const schema = components.schemas[name];
      if (schema) schema.properties.supplierId = { type: 'integer' };
    }
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    paths['/suppliers/'] = {
      get: { operationId: 'getSuppliers', responses: { 200: ok({ type: 'array', items: ref('Supplier') }) } },
    };
    paths['/suppliers/{id}'] = {
      get: { operationId: 'getSupplierById', parameters: [id], responses: { 200: ok(ref('Supplier')) } },
    };
    const created = paths['/parts/']?.post as { responses: Record<string, Record<string, unknown>> };
    const answer = created.responses['200'];
    if (answer)
      answer.links = {
        GetSupplierById: { operationId: 'getSupplierById', parameters: { id: '$response.body#/supplierId' } },
      };
    const { model, report } = toModel(document, { file: 'parts.json' });
    const fields = (name: string) =>
      model.entities.shown ? model.entities.items.find((e) => e.name === name)?.fields : undefined;
    expect(fields('Part')?.find((f) => f.name === 'supplierId')).toMatchObject({
      kind: 'reference',
      entity: 'Supplier',
    });
    expect(fields('PartInput')?.find((f) => f.name === 'supplierId')).toMatchObject({
      kind: 'reference',
      entity: 'Supplier',
    });
    expect(fields('Part')?.find((f) => f.name === 'price')?.kind).toBe('number');
    expect(JSON.stringify(report)).toContain(
      'the answer\'s link \\"GetSupplierById\\" reads that record with it',
    );
  });
});

describe('a sign-in call the sign-in page cannot fill', () => {
  // Conduit's `POST /users/login` takes `{ user: { email, password } }`: the page sends `{ email,
  // password }`, so its Authorization key stays a key the person pastes (seen in the UI corpus).
  it('leaves an Authorization key scheme as a key', () => {
    const document = eventsDocument();
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    const login = paths['/auth/login']?.post;
    if (login === undefined) throw new Error('fixture changed');
    login.requestBody = {
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              user: {
                type: 'object',
                properties: { email: { type: 'string' }, password: { type: 'string' } },
              },
            },
          },
        },
      },
    };
    const { model } = toModel(document, { file: 'events.json' });
    expect(model.roles.shown && model.roles.signIn).toEqual({
      kind: 'api-key',
      in: 'header',
      name: 'Authorization',
      session: 'session',
    });
  });
});

describe('a concurrency stamp', () => {
  it('is read-only when it is bytes named as a stamp, and only then', () => {
    const document = partsDocument();
    const schemas = (
      document.components as { schemas: Record<string, { properties: Record<string, unknown> }> }
    ).schemas;
    const part = schemas.Part;
    if (part === undefined) throw new Error('fixture changed');
    part.properties.rowVersion = { type: 'string', format: 'byte' };
    part.properties.picture = { type: 'string', format: 'byte' };
    part.properties.concurrencyStamp = { type: 'string', format: 'byte', readOnly: false };
    const { model, report } = toModel(document, { file: 'parts.json' });
    const fields = model.entities.shown ? model.entities.items.find((e) => e.name === 'Part')?.fields : [];
    expect(fields?.find((f) => f.name === 'rowVersion')?.readOnly).toBe(true);
    expect(fields?.find((f) => f.name === 'picture')?.readOnly).toBeUndefined();
    expect(fields?.find((f) => f.name === 'concurrencyStamp')?.readOnly).toBeUndefined();
    expect(JSON.stringify(report)).toContain('named as a concurrency stamp, which the server sets');
  });
});
