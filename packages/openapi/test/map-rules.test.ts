import { checkModel, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { formatImportReport } from '../src/import-report';
import { type OpenApi3Like, toModel } from '../src/to-model';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema: unknown) => ({ '200': { description: 'OK', ...json(schema) } });
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

function map(doc: OpenApi3Like): ReturnType<typeof toModel> {
  const result = toModel(doc, { file: 'test.yaml' });
  expect(checkModel(result.model).filter((i) => i.severity === 'error')).toEqual([]);
  return result;
}

function items<T>(point: { shown: boolean }, key = 'items'): T[] {
  expect(point.shown).toBe(true);
  return (point as unknown as Record<string, unknown>)[key] as T[];
}

const stores: OpenApi3Like = {
  openapi: '3.0.3',
  info: { title: 'Stores', description: 'Stores and their staff.' },
  servers: [{ url: 'https://{region}.example.com/v1', variables: { region: { default: 'eu' } } }],
  paths: {
    '/stores': { get: { operationId: 'listStores', responses: ok({ type: 'array', items: ref('Store') }) } },
    '/stores/{storeId}': {
      parameters: [idParam('storeId')],
      get: { operationId: 'getStore', responses: ok(ref('Store')) },
    },
    '/stores/{storeId}/employees': {
      parameters: [idParam('storeId')],
      get: {
        operationId: 'listEmployees',
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } },
          { name: 'role', in: 'query', schema: { type: 'string' } },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['name', '-name', 'bogus'] } },
        ],
        responses: ok({
          type: 'object',
          properties: { data: { type: 'array', items: ref('Employee') }, total: { type: 'integer' } },
        }),
      },
      post: {
        operationId: 'createEmployee',
        requestBody: json(ref('Employee')),
        responses: { '201': { description: 'Created', ...json(ref('Employee')) } },
      },
    },
    '/stores/{storeId}/employees/{id}': {
      parameters: [idParam('storeId'), idParam('id')],
      get: { operationId: 'getEmployee', responses: ok(ref('Employee')) },
      patch: {
        operationId: 'updateEmployee',
        requestBody: json(ref('Employee')),
        responses: ok(ref('Employee')),
      },
    },
  },
  components: {
    schemas: {
      Store: {
        type: 'object',
        required: ['name'],
        properties: {
          id: { type: 'integer', readOnly: true },
          name: { type: 'string', maxLength: 80 },
          tags: { type: 'array', maxItems: 5, items: { type: 'string' } },
        },
      },
      Employee: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string', pattern: '^[A-Z]' },
          role: { type: 'string', enum: ['clerk', 'manager'], default: 'clerk' },
          store: ref('Store'),
          address: { type: 'object', properties: { street: { type: 'string' } } },
          'bad-name': { type: 'string' },
          hired: { type: 'string', format: 'date' },
        },
      },
    },
  },
};

describe('toModel: entities (point 3) and validation (point 5)', () => {
  it('maps object schemas to entities with inferred keys, display fields, references and embedded objects', () => {
    const { model, report } = map(stores);
    const entities = items<import('@ninefold/model').Entity>(model.entities);
    const employee = entities.find((e) => e.name === 'Employee');
    expect(employee?.key).toBe('id');
    expect(employee?.display).toBe('name');
    expect(employee?.fields.find((f) => f.name === 'store')).toMatchObject({
      kind: 'reference',
      entity: 'Store',
    });
    expect(employee?.fields.find((f) => f.name === 'id')).toMatchObject({ kind: 'text', format: 'uuid' });
    expect(employee?.fields.find((f) => f.name === 'hired')).toMatchObject({ kind: 'date' });
    expect(employee?.fields.find((f) => f.name === 'role')).toMatchObject({ kind: 'enum', default: 'clerk' });
    const address = employee?.fields.find((f) => f.name === 'address');
    expect(address).toMatchObject({ kind: 'object', entity: 'EmployeeAddress' });
    expect(entities.find((e) => e.name === 'EmployeeAddress')?.embedded).toBe(true);
    // A wire name the model cannot hold is left out and said so, never renamed behind the API's back.
    expect(employee?.fields.some((f) => f.name.includes('bad'))).toBe(false);
    expect(report.points.entities).toContainEqual(
      expect.objectContaining({
        kind: 'skipped',
        pointer: '/components/schemas/Employee/properties/bad-name',
      }),
    );
    expect(report.points.entities).toContainEqual(
      expect.objectContaining({ kind: 'inferred', message: expect.stringContaining('key of "Employee"') }),
    );
  });

  it('maps constraints to validation and maxItems to a named constant', () => {
    const { model } = map(stores);
    const fields = items<import('@ninefold/model').FieldConstraints>(model.validation, 'fields');
    expect(fields).toContainEqual({
      entity: 'Store',
      field: ['name'],
      required: true,
      max: { kind: 'number', value: 80 },
    });
    expect(fields).toContainEqual({ entity: 'Employee', field: ['name'], pattern: '^[A-Z]' });
    expect(fields).toContainEqual({
      entity: 'Store',
      field: ['tags'],
      max: { kind: 'constant', name: 'MAX_STORE_TAGS' },
    });
    const constants = items<import('@ninefold/model').Constant>(model.constants);
    expect(constants).toContainEqual(expect.objectContaining({ name: 'MAX_STORE_TAGS', value: 5 }));
    expect(constants).toContainEqual(expect.objectContaining({ name: 'MAX_PAGE_SIZE', value: 100 }));
  });

  it('merges allOf, unites a discriminated oneOf, and keeps circular schemas finite', () => {
    const { model, report } = map({
      openapi: '3.1.0',
      info: { title: 'Pets' },
      paths: {},
      components: {
        schemas: {
          Base: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
          Cat: {
            allOf: [
              ref('Base'),
              { type: 'object', properties: { kind: { type: 'string' }, meows: { type: 'boolean' } } },
            ],
          },
          Dog: {
            allOf: [
              ref('Base'),
              {
                type: 'object',
                properties: { kind: { type: 'string' }, barks: { type: ['boolean', 'null'] } },
              },
            ],
          },
          Pet: {
            oneOf: [ref('Cat'), ref('Dog')],
            discriminator: {
              propertyName: 'kind',
              mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' },
            },
          },
          Node: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              children: { type: 'array', items: ref('Node') },
              parent: ref('Node'),
            },
          },
        },
      },
    });
    const entities = items<import('@ninefold/model').Entity>(model.entities);
    expect(entities.find((e) => e.name === 'Cat')?.fields.map((f) => f.name)).toEqual([
      'id',
      'kind',
      'meows',
    ]);
    expect(entities.find((e) => e.name === 'Dog')?.fields.find((f) => f.name === 'barks')?.kind).toBe(
      'boolean',
    );
    const pet = entities.find((e) => e.name === 'Pet');
    expect(pet?.fields.find((f) => f.name === 'kind')).toMatchObject({
      kind: 'enum',
      values: [{ value: 'cat' }, { value: 'dog' }],
    });
    expect(pet?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['id', 'meows', 'barks']));
    expect(report.points.entities.some((e) => e.message.includes('discriminator "kind"'))).toBe(true);
    const node = entities.find((e) => e.name === 'Node');
    expect(node?.fields.find((f) => f.name === 'children')).toEqual({
      name: 'children',
      kind: 'list',
      of: { kind: 'object', entity: 'Node' },
    });
    expect(JSON.stringify(model).length).toBeLessThan(10_000);
  });
});

// A small API whose schemas play every part: records, an envelope and a wrapper of answers, an error
// body, a schema nothing uses, inline objects written twice, a verbatim copy of a named schema, and a
// request body named in components.requestBodies.
const clinic: OpenApi3Like = {
  openapi: '3.0.3',
  info: { title: 'Clinic' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: { ...ok(ref('PetPage')), '404': { description: 'No', ...json(ref('Problem')) } },
      },
      post: {
        operationId: 'createPet',
        requestBody: { $ref: '#/components/requestBodies/NewPet' },
        responses: ok(ref('PetEnvelope')),
      },
    },
    '/pets/{petId}': {
      get: { operationId: 'getPet', parameters: [idParam('petId')], responses: ok(ref('PetEnvelope')) },
    },
    '/owners': {
      get: {
        operationId: 'listOwners',
        // A verbatim copy of the Owner schema, as fully dereferenced documents (Netlify's) write answers.
        responses: ok({
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
        }),
      },
    },
    '/owners/{ownerId}': {
      get: { operationId: 'getOwner', parameters: [idParam('ownerId')], responses: ok(ref('Owner')) },
    },
    '/vets': { get: { operationId: 'listVets', responses: ok({ type: 'array', items: ref('Vet') }) } },
  },
  components: {
    requestBodies: {
      NewPet: {
        content: {
          'application/json': {
            schema: { type: 'object', properties: { name: { type: 'string' }, owner: { type: 'integer' } } },
          },
        },
      },
    },
    schemas: {
      Pet: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          owner: ref('Owner'),
          vet: { allOf: [ref('Vet'), { description: 'Who treats the pet.' }] },
          collar: { type: 'object', properties: { colour: { type: 'string' } } },
          either: { oneOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'string' } } }] },
        },
      },
      Owner: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
      Vet: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          collar: { type: 'object', properties: { colour: { type: 'string' } } },
        },
      },
      PetPage: {
        type: 'object',
        properties: { items: { type: 'array', items: ref('Pet') }, total: { type: 'integer' } },
      },
      PetEnvelope: { type: 'object', properties: { pet: ref('Pet') } },
      Problem: { type: 'object', properties: { title: { type: 'string' }, status: { type: 'integer' } } },
      Orphan: { type: 'object', properties: { lonely: { type: 'boolean' } } },
    },
  },
};

describe('toModel: which schemas become entities (point 3)', () => {
  const { model, report } = map(clinic);
  const entities = items<import('@ninefold/model').Entity>(model.entities);
  const calls = items<import('@ninefold/model').Call>(model.calls);
  const names = entities.map((entity) => entity.name).sort();
  const entry = (pointer: string) => report.points.entities.find((e) => e.pointer === pointer);

  it('makes entities only of what calls use, through answers, bodies and fields', () => {
    expect(names).toEqual(['NewPet', 'Owner', 'Pet', 'PetCollar', 'Vet']);
  });

  it('describes a named envelope or wrapper by the call’s response shape, and reports it', () => {
    expect(calls.find((c) => c.name === 'listPets')?.response).toEqual({
      shape: 'envelope',
      entity: 'Pet',
      items: 'items',
      total: 'total',
    });
    expect(calls.find((c) => c.name === 'getPet')?.response).toEqual({ shape: 'one', entity: 'Pet' });
    expect(entry('/components/schemas/PetPage')).toMatchObject({
      kind: 'inferred',
      message: expect.stringContaining('wraps the answer of GET /pets'),
    });
    expect(entry('/components/schemas/PetEnvelope')?.message).toContain('its "pet" holds the answer');
    // The model cannot say that the record comes inside "pet": that is reported, not hidden.
    expect(report.points.calls).toContainEqual(
      expect.objectContaining({
        kind: 'not-shown',
        pointer: '/paths/~1pets~1{petId}/get/responses/200',
        message: expect.stringContaining('inside "pet"'),
      }),
    );
  });

  it('leaves error bodies to the error catalogue and unused schemas out, each with its pointer', () => {
    expect(entry('/components/schemas/Problem')).toMatchObject({
      kind: 'skipped',
      message: expect.stringContaining('error catalogue (point 8)'),
    });
    expect(entry('/components/schemas/Orphan')).toMatchObject({
      kind: 'skipped',
      message: expect.stringContaining('no call uses it'),
    });
  });

  it('maps one inline schema written in several places to one embedded entity, listing the places', () => {
    const pet = entities.find((e) => e.name === 'Pet');
    const vet = entities.find((e) => e.name === 'Vet');
    expect(pet?.fields.find((f) => f.name === 'collar')).toMatchObject({
      kind: 'object',
      entity: 'PetCollar',
    });
    expect(vet?.fields.find((f) => f.name === 'collar')).toMatchObject({
      kind: 'object',
      entity: 'PetCollar',
    });
    expect(entry('/components/schemas/Pet/properties/collar')?.also).toEqual([
      '/components/schemas/Vet/properties/collar',
    ]);
  });

  it('maps a verbatim copy of a named schema to its entity', () => {
    expect(calls.find((c) => c.name === 'listOwners')).toMatchObject({
      entity: 'Owner',
      response: { shape: 'array', entity: 'Owner' },
    });
    const screens = items<import('@ninefold/model').Screen>(model.screens);
    expect(screens.map((s) => `${s.kind} ${s.route}`)).toContain('list /owners');
  });

  it('names an inline body after its components.requestBodies entry', () => {
    expect(calls.find((c) => c.name === 'createPet')?.body).toEqual({ entity: 'NewPet', encoding: 'json' });
    expect(report.points.entities).toContainEqual(
      expect.objectContaining({
        pointer: '/components/requestBodies/NewPet/content/application~1json/schema',
      }),
    );
  });

  it('refers to records that have an item path, and holds others read-only as the API answers them', () => {
    const pet = entities.find((e) => e.name === 'Pet');
    expect(pet?.fields.find((f) => f.name === 'owner')).toEqual({
      name: 'owner',
      kind: 'reference',
      entity: 'Owner',
    });
    // Vet has records (GET /vets) but no item path to refer to; its description comes from the allOf.
    expect(pet?.fields.find((f) => f.name === 'vet')).toEqual({
      name: 'vet',
      kind: 'object',
      entity: 'Vet',
      help: 'Who treats the pet.',
      readOnly: true,
    });
    expect(entities.find((e) => e.name === 'Vet')?.embedded).toBeUndefined();
    // A read-only object of a record is the record as answered, not a mistake the check warns about.
    expect(checkModel(model)).toEqual([]);
  });

  it('leaves no entity behind for a branch of a choice that is not taken', () => {
    expect(entities.find((e) => e.name === 'Pet')?.fields.some((f) => f.name === 'either')).toBe(false);
    expect(names.some((name) => name.startsWith('PetEither'))).toBe(false);
  });

  it('reports each entity’s routine inferences and constraints once, not once per field', () => {
    const about = (pointer: string) => report.points.entities.filter((e) => e.pointer === pointer);
    expect(about('/components/schemas/Owner').map((e) => e.kind)).toEqual(['inferred', 'mapped']);
    expect(about('/components/schemas/Owner')[0]?.message).toMatch(
      /^key of "Owner" is "id".*; display field/,
    );
    const calls = report.points.calls.filter((e) => e.pointer === '/paths/~1owners/get');
    expect(calls.map((e) => e.kind)).toEqual(['mapped', 'inferred']);
  });
});

describe('toModel: calls (point 7) and screens (point 2)', () => {
  it('names a search where a list takes free text under a search parameter, and nowhere else', () => {
    const article = {
      type: 'object',
      properties: { id: { type: 'integer' }, title: { type: 'string' }, query: { type: 'string' } },
    };
    const list = (parameters: unknown[]) => ({
      get: {
        operationId: 'listArticles',
        parameters,
        responses: ok({ type: 'array', items: ref('Article') }),
      },
    });
    const searched = (parameters: unknown[]) => {
      const { model } = map({
        openapi: '3.1.0',
        info: { title: 'Articles', version: '1' },
        paths: { '/articles': list(parameters) },
        components: { schemas: { Article: article } },
      } as OpenApi3Like);
      return items<import('@ninefold/model').Call>(model.calls).find((c) => c.name === 'listArticles')
        ?.search;
    };
    expect(searched([{ name: 'q', in: 'query', schema: { type: 'string' } }])).toEqual({ param: 'q' });
    expect(searched([{ name: 'Search', in: 'query', schema: { type: 'string' } }])).toEqual({
      param: 'Search',
    });
    // Not free text: a structured filter object, or a number.
    expect(searched([{ name: 'q', in: 'query', schema: { type: 'object' } }])).toBeUndefined();
    expect(searched([{ name: 'term', in: 'query', schema: { type: 'integer' } }])).toBeUndefined();
    // A parameter named like a field is that field's filter, not a search.
    expect(searched([{ name: 'query', in: 'query', schema: { type: 'string' } }])).toBeUndefined();
    expect(searched([{ name: 'page', in: 'query', schema: { type: 'integer' } }])).toBeUndefined();
  });

  it('filters only where a query parameter carries the same kind of value as the field it is named like', () => {
    const doc: OpenApi3Like = {
      openapi: '3.1.0',
      info: { title: 'Articles', version: '1' },
      paths: {
        '/articles': {
          get: {
            operationId: 'listArticles',
            parameters: [
              // As Conduit: a user name, not the boolean of the same name.
              { name: 'favorited', in: 'query', schema: { type: 'string' } },
              { name: 'published', in: 'query', schema: { type: 'boolean' } },
              { name: 'title', in: 'query', schema: { type: 'string' } },
            ],
            responses: ok({ type: 'array', items: ref('Article') }),
          },
        },
      },
      components: {
        schemas: {
          Article: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              title: { type: 'string' },
              favorited: { type: 'boolean' },
              published: { type: 'boolean' },
            },
          },
        },
      },
    };
    const { model, report } = map(doc);
    const list = items<import('@ninefold/model').Call>(model.calls).find((c) => c.name === 'listArticles');
    expect(list?.filters).toEqual([
      { field: 'published', param: 'published', op: 'eq' },
      { field: 'title', param: 'title', op: 'eq' },
    ]);
    expect(report.points.calls.map((entry) => entry.message)).toContainEqual(
      'query parameter "favorited" of GET /articles is not a filter on "Article.favorited": the parameter is text, the field boolean',
    );
  });

  it("nests sub-resource screens under their parent with the list call's path parameters", () => {
    const { model } = map(stores);
    const screens = items<import('@ninefold/model').Screen>(model.screens);
    expect(screens.map((s) => [s.kind, s.route])).toEqual([
      ['list', '/stores'],
      ['detail', '/stores/:storeId'],
      ['list', '/stores/:storeId/employees'],
      ['create', '/stores/:storeId/employees/new'],
      ['detail', '/stores/:storeId/employees/:id'],
      ['edit', '/stores/:storeId/employees/:id/edit'],
    ]);
    const list = screens.find((s) => s.route === '/stores/:storeId/employees');
    expect(list).toMatchObject({
      entity: 'Employee',
      columns: ['id', 'name', 'role', 'store', 'hired'],
      filters: ['role'],
      sort: [{ field: 'name', direction: 'asc' }],
    });
  });

  it('maps purposes, parameters, envelopes, pagination, sorting and the base URL', () => {
    const { model } = map(stores);
    expect(model.calls.shown && model.calls.baseUrl).toBe('https://eu.example.com/v1');
    const calls = items<import('@ninefold/model').Call>(model.calls);
    const list = calls.find((c) => c.name === 'listEmployees');
    expect(list).toMatchObject({
      purpose: 'list',
      entity: 'Employee',
      response: { shape: 'envelope', entity: 'Employee', items: 'data', total: 'total' },
      pagination: {
        style: 'page',
        pageParam: 'page',
        sizeParam: 'limit',
        maxSize: { kind: 'constant', name: 'MAX_PAGE_SIZE' },
      },
      sort: { param: 'sort', fields: ['name'], style: 'field,-field' },
      filters: [{ field: 'role', param: 'role', op: 'eq' }],
    });
    expect(list?.parameters.find((p) => p.name === 'storeId')).toEqual({
      name: 'storeId',
      in: 'path',
      required: true,
      type: { kind: 'text' },
    });
    expect(calls.find((c) => c.name === 'createEmployee')).toMatchObject({
      purpose: 'create',
      body: { entity: 'Employee', encoding: 'json' },
    });
    expect(calls.find((c) => c.name === 'updateEmployee')?.purpose).toBe('update');
    expect(calls.find((c) => c.name === 'listStores')?.response).toEqual({ shape: 'array', entity: 'Store' });
  });

  it.each([
    [
      'offset',
      [
        { name: 'offset', in: 'query', schema: { type: 'integer' } },
        { name: 'limit', in: 'query', schema: { type: 'integer' } },
      ],
      {},
      {},
      { style: 'offset', offsetParam: 'offset', limitParam: 'limit' },
    ],
    [
      'cursor',
      [
        { name: 'cursor', in: 'query', schema: { type: 'string' } },
        { name: 'limit', in: 'query', schema: { type: 'integer' } },
      ],
      { next_cursor: { type: 'string' } },
      {},
      { style: 'cursor', cursorParam: 'cursor', sizeParam: 'limit', nextField: 'next_cursor' },
    ],
    [
      'link-header',
      [{ name: 'per_page', in: 'query', schema: { type: 'integer' } }],
      {},
      { Link: { schema: { type: 'string' } } },
      { style: 'link-header', sizeParam: 'per_page' },
    ],
  ])('detects %s pagination', (_style, parameters, extra, headers, expected) => {
    const { model } = map({
      openapi: '3.0.0',
      info: { title: 'T' },
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            parameters,
            responses: {
              '200': {
                description: 'OK',
                headers,
                ...json({
                  type: 'object',
                  properties: { items: { type: 'array', items: ref('Thing') }, ...extra },
                }),
              },
            },
          },
        },
      },
      components: { schemas: { Thing: { type: 'object', properties: { id: { type: 'integer' } } } } },
    });
    expect(items<import('@ninefold/model').Call>(model.calls)[0]?.pagination).toEqual(expected);
  });

  it('maps form and multipart bodies, and binary fields to files', () => {
    const { model } = map({
      openapi: '3.0.0',
      info: { title: 'T' },
      paths: {
        '/uploads': {
          post: {
            operationId: 'upload',
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
                },
              },
            },
            responses: { '204': { description: 'done' } },
          },
        },
        '/forms': {
          post: {
            operationId: 'form',
            requestBody: {
              content: {
                'application/x-www-form-urlencoded': {
                  schema: { type: 'object', properties: { a: { type: 'string' } } },
                },
              },
            },
            responses: { '204': { description: 'done' } },
          },
        },
      },
    });
    const calls = items<import('@ninefold/model').Call>(model.calls);
    expect(calls[0]?.body).toEqual({ entity: 'UploadBody', encoding: 'multipart' });
    expect(calls[1]?.body).toEqual({ entity: 'FormBody', encoding: 'form' });
    const upload = items<import('@ninefold/model').Entity>(model.entities).find(
      (e) => e.name === 'UploadBody',
    );
    expect(upload?.fields[0]).toMatchObject({ name: 'file', kind: 'file' });
  });
});

const orders = (actions: string[]): OpenApi3Like => ({
  openapi: '3.0.0',
  info: { title: 'Orders' },
  paths: {
    '/orders': { get: { operationId: 'listOrders', responses: ok({ type: 'array', items: ref('Order') }) } },
    '/orders/{id}': {
      get: { operationId: 'getOrder', parameters: [idParam('id')], responses: ok(ref('Order')) },
    },
    ...Object.fromEntries(
      actions.map((action) => [
        `/orders/{id}/${action}`,
        { post: { operationId: `${action}Order`, parameters: [idParam('id')], responses: ok(ref('Order')) } },
      ]),
    ),
  },
  components: {
    schemas: {
      Order: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          status: { type: 'string', enum: ['placed', 'shipped', 'cancelled'] },
        },
      },
    },
  },
});

describe('toModel: states (point 4)', () => {
  it('turns action operations into transitions to the state their name matches', () => {
    const { model, report } = map(orders(['cancel', 'ship', 'refund']));
    const machine = items<import('@ninefold/model').StateMachine>(model.states, 'machines')[0];
    expect(machine).toMatchObject({ entity: 'Order', field: 'status', initial: 'placed' });
    expect(machine?.transitions).toEqual([
      { name: 'cancel', from: ['placed', 'shipped'], to: 'cancelled', call: 'cancelOrder', set: [] },
      { name: 'ship', from: ['placed', 'cancelled'], to: 'shipped', call: 'shipOrder', set: [] },
    ]);
    expect(report.points.states).toContainEqual(
      expect.objectContaining({ kind: 'skipped', pointer: '/paths/~1orders~1{id}~1refund/post' }),
    );
  });

  it('leaves states not shown when no action names its target state', () => {
    const { model, report } = map(orders(['refund']));
    expect(model.states.shown).toBe(false);
    expect(model.states.shown === false && model.states.reason).toMatch(/target state/);
    expect(report.points.states.some((e) => e.kind === 'skipped' && e.message.includes('not guessed'))).toBe(
      true,
    );
  });
});

describe('toModel: sign-in and roles (point 6), errors (point 8), product (point 1)', () => {
  const secured = (schemes: Record<string, unknown>, paths: Record<string, unknown> = {}): OpenApi3Like => ({
    openapi: '3.0.0',
    info: { title: 'S' },
    paths,
    components: { securitySchemes: schemes },
  });

  it.each([
    ['http basic', { type: 'http', scheme: 'basic' }, { kind: 'basic' }],
    [
      'apiKey',
      { type: 'apiKey', in: 'header', name: 'X-Key' },
      { kind: 'api-key', in: 'header', name: 'X-Key', session: 'session' },
    ],
    // Nothing the client can run hands out a token: the person pastes one, kept for the tab.
    ['http bearer with no login', { type: 'http', scheme: 'bearer' }, { kind: 'token', session: 'session' }],
    [
      'OpenID Connect (no client id)',
      { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' },
      { kind: 'token' },
    ],
    [
      'OAuth 2 implicit flow',
      { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a', scopes: { read: 'Read' } } } },
      { kind: 'token' },
    ],
  ])('maps %s to a sign-in', (_name, scheme, expected) => {
    const { model } = map(secured({ main: scheme }));
    expect(model.roles.shown && model.roles.signIn).toMatchObject(expected);
  });

  it('signs in as the client id given at import, which no document names', () => {
    const sign = (scheme: unknown) => {
      const { model } = toModel(secured({ main: scheme }) as OpenApi3Like, {
        file: 'a.yaml',
        clientId: 'my-app',
      });
      return model.roles.shown ? model.roles.signIn : undefined;
    };
    expect(
      sign({
        type: 'openIdConnect',
        openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration',
      }),
    ).toEqual({
      kind: 'oidc',
      issuer: 'https://id.example.com',
      clientId: 'my-app',
      scopes: [],
      session: 'memory',
    });
    expect(
      sign({
        type: 'oauth2',
        flows: { authorizationCode: { authorizationUrl: 'https://a', tokenUrl: 'https://t', scopes: {} } },
      }),
    ).toMatchObject({ kind: 'oauth2', clientId: 'my-app' });
    // A flow the client cannot run stays a pasted token, client id or not.
    expect(
      sign({ type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a', scopes: {} } } }),
    ).toMatchObject({ kind: 'token' });
  });

  it('prefers a scheme the client completes to one that needs a pasted token, when none is applied', () => {
    const { model, report } = map(
      secured({
        oauth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a', scopes: {} } } },
        basicAuth: { type: 'http', scheme: 'basic' },
      }),
    );
    expect(model.roles.shown && model.roles.signIn).toMatchObject({ kind: 'basic' });
    expect(report.points.roles).toContainEqual(
      expect.objectContaining({ kind: 'skipped', pointer: '/components/securitySchemes/oauth' }),
    );
  });

  it('keeps the scheme the document applies, even when it needs a pasted token', () => {
    const document = secured({
      basicAuth: { type: 'http', scheme: 'basic' },
      jwt: { type: 'http', scheme: 'bearer' },
    });
    const { model, report } = map({ ...document, security: [{ jwt: [] }] });
    expect(model.roles.shown && model.roles.signIn).toMatchObject({ kind: 'token' });
    expect(report.points.roles).toContainEqual(
      expect.objectContaining({
        kind: 'inferred',
        pointer: '/components/securitySchemes/jwt',
        message: expect.stringContaining('the person pastes an access token'),
      }),
    );
  });

  it('maps the OAuth authorization code flow with scopes to roles, and reports what it cannot map', () => {
    const { model, report } = map(
      secured({
        unknown: { type: 'mutualTLS' },
        oidc: {
          type: 'openIdConnect',
          openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration',
        },
        oauth: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://a',
              tokenUrl: 'https://t',
              scopes: { admin: 'Administer', 'read:all': 'Read' },
            },
          },
        },
      }),
    );
    expect(model.roles.shown && model.roles.signIn).toMatchObject({
      kind: 'oauth2',
      scopes: ['admin', 'read:all'],
    });
    expect(model.roles.shown && model.roles.roles).toEqual([{ name: 'admin', description: 'Administer' }]);
    expect(report.points.roles).toContainEqual(
      expect.objectContaining({ kind: 'skipped', pointer: '/components/securitySchemes/unknown' }),
    );
    // OpenID Connect would need a pasted token; the code flow comes first, and says how to give it a client id.
    expect(report.points.roles).toContainEqual(
      expect.objectContaining({ kind: 'skipped', pointer: '/components/securitySchemes/oidc' }),
    );
    expect(report.points.roles.some((e) => e.message.includes('pasted access token'))).toBe(true);
    expect(report.points.roles.some((e) => e.message.includes('read:all'))).toBe(true);
  });

  it('maps a bearer token to password sign-in when a login operation exists, else to a pasted token', () => {
    expect(map(secured({ jwt: { type: 'http', scheme: 'bearer' } })).model.roles).toMatchObject({
      shown: true,
      signIn: { kind: 'token' },
    });
    const login = {
      '/auth/login': { post: { operationId: 'login', responses: { '200': { description: 'ok' } } } },
    };
    expect(map(secured({ jwt: { type: 'http', scheme: 'bearer' } }, login)).model.roles).toMatchObject({
      shown: true,
      signIn: { kind: 'password', call: 'login' },
    });
  });

  it('says why a point is not shown instead of an empty list', () => {
    const { model } = map({ openapi: '3.1.0', info: { title: 'Empty' }, paths: {} });
    expect(model.title).toBe('Empty');
    for (const point of [
      'product',
      'screens',
      'entities',
      'states',
      'roles',
      'calls',
      'errors',
      'constants',
    ] as const) {
      const value = model[point as keyof Model] as { shown: boolean; reason?: string };
      expect(value.shown, point).toBe(false);
      expect(value.reason, point).toMatch(/^Not shown: /);
    }
    expect(model.roles.shown === false && model.roles.reason).toContain('securitySchemes');
  });

  it('maps error responses and RFC 9457 problem codes', () => {
    const problem = {
      type: 'object',
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        code: { type: 'string', enum: ['OUT_OF_STOCK'] },
      },
    };
    const { model } = map({
      openapi: '3.0.0',
      info: { title: 'E', summary: 'Errors', description: 'About errors' },
      paths: {
        '/x': {
          get: {
            responses: {
              '404': { description: 'Not here' },
              '409': { description: 'c', content: { 'application/problem+json': { schema: problem } } },
              '5XX': { description: 'Down' },
            },
          },
        },
      },
    });
    expect(model.product).toEqual({
      shown: true,
      audience: [],
      summary: 'Errors',
      description: 'About errors',
    });
    expect(items<import('@ninefold/model').ErrorEntry>(model.errors, 'entries')).toEqual([
      { match: { status: 404 }, message: 'Not here', action: 'go-back' },
      { match: { status: 409, code: 'OUT_OF_STOCK' }, message: 'Out of stock', action: 'reload' },
      { match: { status: '5xx' }, message: 'Down', action: 'retry' },
    ]);
  });

  it('takes a description as the message of a status only when every call that answers it says the same', () => {
    const { model, report } = map({
      openapi: '3.0.0',
      info: { title: 'E' },
      paths: {
        '/search': { get: { responses: { '400': { description: 'Invalid filter syntax' } } } },
        '/orders': {
          post: { responses: { '400': { description: 'Request body failed validation' } } },
          get: { responses: { '404': { description: 'No such order' } } },
        },
        '/orders/{id}': { get: { responses: { '404': { description: 'No such order' } } } },
      },
    });
    // "Invalid filter syntax" was written for the search: it must not explain a refused order.
    expect(items<import('@ninefold/model').ErrorEntry>(model.errors, 'entries')).toEqual([
      { match: { status: 400 }, message: 'Bad request', action: 'fix-field' },
      { match: { status: 404 }, message: 'No such order', action: 'go-back' },
    ]);
    expect(JSON.stringify(report)).toContain(
      'the operations describe 400 in 2 ways, each about its own call',
    );
  });
});

describe('toModel: bad input', () => {
  it('turns a failure in one operation into an issue with its path, and maps the rest', () => {
    const broken: Record<string, unknown> = { operationId: 'broken' };
    Object.defineProperty(broken, 'responses', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const { model, issues } = toModel(
      {
        openapi: '3.0.0',
        info: { title: 'B' },
        paths: { '/a': { get: broken }, '/b': { get: { operationId: 'fine', responses: {} } } },
      },
      { file: 'b.yaml' },
    );
    expect(issues).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: ['paths', '/a', 'get'],
        message: expect.stringContaining('boom'),
      }),
    ]);
    expect(items<import('@ninefold/model').Call>(model.calls).map((c) => c.name)).toEqual(['fine']);
  });

  it('turns a failure in one schema into an issue at its pointer, and keeps the calls that use it', () => {
    const field: Record<string, unknown> = { type: 'string' };
    Object.defineProperty(field, 'description', {
      enumerable: true,
      get: () => {
        throw new Error('bad schema');
      },
    });
    const { model, issues } = toModel(
      {
        openapi: '3.0.0',
        info: { title: 'B' },
        paths: { '/boom': { get: { operationId: 'getBoom', responses: ok(ref('Boom')) } } },
        components: { schemas: { Boom: { type: 'object', properties: { x: field } } } },
      },
      { file: 'b.yaml' },
    );
    expect(issues).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: ['components', 'schemas', 'Boom'],
        message: expect.stringContaining('bad schema'),
      }),
    ]);
    expect(items<import('@ninefold/model').Call>(model.calls)[0]).toMatchObject({ entity: 'Boom' });
    expect(items<import('@ninefold/model').Entity>(model.entities)).toEqual([{ name: 'Boom', fields: [] }]);
  });

  it('never throws on garbage', () => {
    for (const value of [
      null,
      42,
      'x',
      [],
      { paths: 'no' },
      {
        paths: { '/a': { get: { parameters: 'x', responses: [] } } },
        components: { schemas: { A: { allOf: [{ $ref: '#/nope' }] } } },
      },
    ]) {
      expect(() => toModel(value as OpenApi3Like, { file: 'g' })).not.toThrow();
    }
  });

  it('formats the report with counts and pointers', () => {
    const text = formatImportReport(map(stores).report);
    expect(text).toMatch(/^Import report for test\.yaml: \d+ mapped, \d+ inferred/);
    expect(text).toContain('2. screens and routes:');
    expect(text).toContain('(/components/schemas/Employee/properties/bad-name)');
  });
});
