import type { Call, Model } from '@ninefold/spec';
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
