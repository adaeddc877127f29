import { toPointer } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { readOpenApi } from '../src/index';

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep into the upgraded document by known paths.
type Loose = any;

const json = (value: unknown) => JSON.stringify(value, null, 2);
const files =
  (map: Record<string, unknown>) =>
  (path: string): string | undefined =>
    path in map ? (typeof map[path] === 'string' ? (map[path] as string) : json(map[path])) : undefined;

describe('readOpenApi: bad input', () => {
  it('names the line and column of a JSON syntax error', () => {
    const result = readOpenApi({ text: '{\n  "openapi": "3.0.0",\n  "info": {,\n}', file: 'api.json' });
    expect(result.ok).toBe(false);
    expect(result.version).toBe('unknown');
    expect(result.issues[0]).toMatchObject({
      code: 'syntax',
      source: { file: 'api.json', line: 3, column: 12 },
    });
  });

  it('names the position of a YAML syntax error', () => {
    const result = readOpenApi({ text: 'openapi: 3.0.0\ninfo:\n  title: [a\n', file: 'api.yaml' });
    expect(result.ok).toBe(false);
    expect(result.issues[0]?.code).toBe('syntax');
    expect(result.issues[0]?.source?.line).toBeGreaterThanOrEqual(3);
  });

  it('reports a truncated JSON text at its end', () => {
    const result = readOpenApi({ text: '{"openapi": "3.1.0", "info": {', file: 'cut.json' });
    expect(result.issues[0]).toMatchObject({ code: 'syntax', source: { line: 1 } });
  });

  it.each([
    ['', 'empty-file'],
    ['  \n', 'empty-file'],
    ['just some words', 'invalid-type'],
    ['[1, 2]', 'invalid-type'],
    ['null', 'invalid-type'],
    ['title: Shop\nentities: not shown\n', 'missing-key'],
    ['openapi: 3\n', 'invalid-type'],
    ['openapi: "1.2"\n', 'invalid-value'],
    ['swagger: "1.2"\n', 'invalid-value'],
    ['a\u0000b', 'binary-file'],
  ])('refuses %j with %s, without throwing', (text, code) => {
    const result = readOpenApi({ text, file: 'x.yaml' });
    expect(result.ok).toBe(false);
    expect(result.document).toBeUndefined();
    expect(result.issues.map((issue) => issue.code)).toContain(code);
  });

  it('refuses a text that is too large before parsing it', () => {
    const text = `{"openapi":"3.0.0","x":"${'a'.repeat(65 * 1024 * 1024)}"}`;
    const result = readOpenApi({ text, file: 'big.json' });
    expect(result.issues[0]?.code).toBe('too-large');
  });

  it('survives a YAML alias bomb (guards against "billion laughs")', () => {
    const lines = ['openapi: 3.0.0', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const started = performance.now();
    const result = readOpenApi({ text: lines.join('\n'), file: 'bomb.yaml' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.ok).toBe(false);
    expect(result.issues[0]?.code).toBe('syntax');
  });

  it('survives nesting too deep for the stack (JSON) and too deep for the walk', () => {
    const deep = `{"openapi":"3.0.0","paths":{},"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const stack = readOpenApi({ text: deep, file: 'deep.json' });
    expect(stack.ok).toBe(false);
    let nested = '{}';
    for (let i = 0; i < 400; i++) nested = `{"a":${nested}}`;
    const walked = readOpenApi({ text: `{"openapi":"3.0.0","paths":{},"x":${nested}}`, file: 'deep.json' });
    expect(walked.issues.map((issue) => issue.code)).toContain('too-deep');
  });

  it('reports wrong types with a pointer and a line, and leaves the wrong parts out', () => {
    const text = [
      'openapi: 3.0.3',
      'info: {title: T, version: "1"}',
      'paths:',
      '  /a: [1, 2]',
      '  /b:',
      '    get:',
      '      parameters: {name: q}',
      '      responses: {}',
      '    post: yes',
    ].join('\n');
    const result = readOpenApi({ text, file: 'api.yaml' });
    expect(result.ok).toBe(false);
    const found = result.issues.map((issue) => [issue.code, toPointer(issue.path), issue.source?.line]);
    expect(found).toEqual([
      ['invalid-type', '/paths/~1a', 4],
      ['invalid-type', '/paths/~1b/get/parameters', 7],
      ['invalid-type', '/paths/~1b/post', 9],
    ]);
    expect(result.document?.paths).toEqual({ '/b': { get: { responses: {} } } });
  });

  it('positions issues in JSON by pointer', () => {
    const text = json({ openapi: '3.0.0', info: { title: 'T', version: '1' }, paths: { '/a': 'no' } });
    const result = readOpenApi({ text, file: 'api.json' });
    expect(result.issues[0]).toMatchObject({ path: ['paths', '/a'], source: { line: 8, column: 11 } });
  });
});

describe('readOpenApi: references', () => {
  const base = { info: { title: 'T', version: '1' } };

  it('keeps circular schemas as references, so the document stays finite', () => {
    const doc = {
      openapi: '3.0.0',
      ...base,
      paths: {},
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
          },
        },
      },
    };
    const result = readOpenApi({ text: json(doc), file: 'api.json' });
    expect(result.ok).toBe(true);
    expect(result.document).toEqual(doc);
    expect(() => JSON.stringify(result.document)).not.toThrow();
  });

  it('reports an internal reference to nothing with its pointer and line', () => {
    const text = json({
      openapi: '3.1.0',
      ...base,
      paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/Missing' } } } } },
    });
    const result = readOpenApi({ text, file: 'api.json' });
    expect(result.ok).toBe(false);
    expect(result.issues).toMatchObject([
      {
        code: 'unknown-reference',
        path: ['paths', '/a', 'get', 'responses', '200', '$ref'],
        source: { line: 12, column: 21 },
      },
    ]);
    expect(result.document).toBeDefined();
  });

  it('leaves a "$ref" inside an example alone', () => {
    const doc = {
      openapi: '3.0.0',
      ...base,
      paths: {},
      components: { schemas: { A: { type: 'object', example: { $ref: 'not/a/ref.json' } } } },
    };
    expect(readOpenApi({ text: json(doc), file: 'api.json' }).issues).toEqual([]);
  });

  it('pulls other files into components, by kind, under their names', () => {
    const readFile = files({
      'spec/Pet.yaml': 'type: object\nproperties:\n  owner: {$ref: "common.yaml#/Person"}\n',
      'spec/common.yaml':
        'Person: {type: object, properties: {pets: {type: array, items: {$ref: "Pet.yaml"}}}}\nLimit: {name: limit, in: query, schema: {type: integer}}\n',
      'shared/Error.json': { type: 'object', properties: { code: { type: 'integer' } } },
    });
    const doc = {
      openapi: '3.0.0',
      ...base,
      paths: {
        '/pets': {
          get: {
            parameters: [{ $ref: 'common.yaml#/Limit' }],
            responses: {
              200: { description: 'ok', content: { 'application/json': { schema: { $ref: './Pet.yaml' } } } },
              default: {
                description: 'no',
                content: { 'application/json': { schema: { $ref: '../shared/Error.json' } } },
              },
            },
          },
        },
      },
      components: { schemas: { Error: { type: 'string' } } },
    };
    // The shared folder is beside the document's own, so the root is named: the folder holding both.
    const result = readOpenApi({ text: json(doc), file: 'spec/api.json' }, { readFile, root: '' });
    expect(result.issues).toEqual([]);
    const components = result.document?.components;
    expect(Object.keys(components?.schemas ?? {})).toEqual(['Error', 'Pet', 'Person', 'Error2']);
    expect(components?.parameters?.Limit).toEqual({
      name: 'limit',
      in: 'query',
      schema: { type: 'integer' },
    });
    expect(components?.schemas?.Person).toEqual({
      type: 'object',
      properties: { pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
    });
    expect(JSON.stringify(result.document)).not.toMatch(/"\$ref":"(?!#)/);
  });

  it('reports a file that cannot be read, or a pointer into it that finds nothing, at the reference', () => {
    const doc = {
      openapi: '3.0.0',
      ...base,
      paths: {},
      components: {
        schemas: { A: { $ref: 'gone.yaml' }, B: { $ref: 'here.yaml#/Nope' }, C: { $ref: 'broken.json' } },
      },
    };
    const readFile = files({ 'here.yaml': 'Yes: {type: string}\n', 'broken.json': '{"type": ' });
    const result = readOpenApi({ text: json(doc), file: 'api.json' }, { readFile });
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => [issue.code, toPointer(issue.path), issue.source?.file])).toEqual([
      ['unreadable-file', '/components/schemas/A/$ref', 'api.json'],
      ['unknown-reference', '/components/schemas/B/$ref', 'api.json'],
      ['syntax', '', 'broken.json'],
    ]);
    const without = readOpenApi({ text: json(doc), file: 'api.json' });
    expect(without.issues[0]?.message).toMatch(/no way to read files/);
  });

  it('keeps a cycle across files finite', () => {
    const readFile = files({
      'a.yaml': 'type: object\nproperties:\n  b: {$ref: "b.yaml"}\n',
      'b.yaml': 'type: object\nproperties:\n  a: {$ref: "a.yaml"}\n  self: {$ref: "#"}\n',
    });
    const doc = { openapi: '3.1.0', ...base, components: { schemas: { Root: { $ref: 'a.yaml' } } } };
    const result = readOpenApi({ text: json(doc), file: 'api.json' }, { readFile });
    expect(result.issues).toEqual([]);
    expect(result.document?.components?.schemas).toEqual({
      Root: { $ref: '#/components/schemas/a' },
      a: { type: 'object', properties: { b: { $ref: '#/components/schemas/b' } } },
      b: {
        type: 'object',
        properties: { a: { $ref: '#/components/schemas/a' }, self: { $ref: '#/components/schemas/b' } },
      },
    });
  });

  it('inlines a path item from another file in 3.0, where components cannot hold one', () => {
    const readFile = files({ 'pets.yaml': 'get:\n  responses:\n    "200": {description: ok}\n' });
    const doc = { openapi: '3.0.0', ...base, paths: { '/pets': { $ref: 'pets.yaml' } } };
    const result = readOpenApi({ text: json(doc), file: 'api.json' }, { readFile });
    expect(result.document?.paths?.['/pets']).toEqual({ get: { responses: { 200: { description: 'ok' } } } });
  });
});

describe('readOpenApi: Swagger 2.0 becomes OpenAPI 3.0', () => {
  const swagger = {
    swagger: '2.0',
    info: { title: 'Shop', version: '1' },
    host: 'api.example.com',
    basePath: '/v1',
    schemes: ['https'],
    consumes: ['application/json'],
    produces: ['application/json'],
    securityDefinitions: {
      key: { type: 'apiKey', name: 'X-Key', in: 'header' },
      oauth: {
        type: 'oauth2',
        flow: 'accessCode',
        authorizationUrl: 'https://a/auth',
        tokenUrl: 'https://a/token',
        scopes: { read: 'read' },
      },
    },
    paths: {
      '/pets': {
        post: {
          parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } }],
          responses: { 201: { description: 'made', schema: { $ref: '#/definitions/Pet' } } },
        },
      },
      '/pets/{id}': {
        post: {
          consumes: ['application/x-www-form-urlencoded'],
          parameters: [
            { name: 'id', in: 'path', required: true, type: 'integer' },
            { name: 'name', in: 'formData', type: 'string' },
          ],
          responses: { 200: { description: 'ok' } },
        },
      },
      '/pets/{id}/photo': {
        post: {
          consumes: ['multipart/form-data'],
          parameters: [
            { name: 'id', in: 'path', required: true, type: 'integer' },
            { name: 'file', in: 'formData', type: 'file', required: true },
          ],
          responses: { 200: { description: 'ok' } },
        },
      },
    },
    definitions: {
      Pet: {
        type: 'object',
        properties: { name: { type: 'string' }, parent: { $ref: '#/definitions/Pet' } },
      },
    },
  };

  const result = readOpenApi({ text: json(swagger), file: 'swagger.json' });
  const doc = result.document as unknown as Loose;

  it('reads ok, says 2.0, and upgrades to 3.0', () => {
    expect(result.issues).toEqual([]);
    expect(result.version).toBe('2.0');
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.swagger).toBeUndefined();
  });

  it('turns host, basePath and schemes into servers', () => {
    expect(doc.servers).toEqual([{ url: 'https://api.example.com/v1' }]);
  });

  it('turns definitions into components.schemas, circular references kept', () => {
    expect(doc.components.schemas.Pet.properties.parent).toEqual({ $ref: '#/components/schemas/Pet' });
  });

  it('turns a body parameter into a JSON request body and a response schema into content', () => {
    const post = doc.paths['/pets'].post;
    expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Pet' });
    expect(post.requestBody.required).toBe(true);
    expect(post.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Pet',
    });
  });

  it('turns form parameters into a form body, and a file into multipart binary', () => {
    const form = doc.paths['/pets/{id}'].post;
    expect(form.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    ]);
    expect(form.requestBody.content['application/x-www-form-urlencoded'].schema.properties.name).toEqual({
      type: 'string',
    });
    const upload = doc.paths['/pets/{id}/photo'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(upload.required).toEqual(['file']);
  });

  it('turns securityDefinitions into securitySchemes with OAuth flows', () => {
    expect(doc.components.securitySchemes.key).toEqual({ type: 'apiKey', name: 'X-Key', in: 'header' });
    expect(doc.components.securitySchemes.oauth.flows.authorizationCode).toMatchObject({
      authorizationUrl: 'https://a/auth',
      tokenUrl: 'https://a/token',
      scopes: { read: 'read' },
    });
  });

  it('pulls other files of a 2.0 document into definitions and parameters before upgrading', () => {
    const readFile = files({
      'params.yaml': 'limit: {name: limit, in: query, type: integer}\n',
      'Pet.yaml': 'type: object\nproperties: {name: {type: string}}\n',
    });
    const split = {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/pets': {
          get: {
            parameters: [{ $ref: 'params.yaml#/limit' }],
            responses: { 200: { description: 'ok', schema: { type: 'array', items: { $ref: 'Pet.yaml' } } } },
          },
        },
      },
    };
    const read = readOpenApi({ text: json(split), file: 'swagger.json' }, { readFile });
    expect(read.issues).toEqual([]);
    const get = (read.document as unknown as Loose).paths['/pets'].get;
    expect(get.parameters).toEqual([{ $ref: '#/components/parameters/limit' }]);
    expect(read.document?.components?.parameters?.limit).toMatchObject({
      name: 'limit',
      schema: { type: 'integer' },
    });
    expect(read.document?.components?.schemas?.Pet).toBeDefined();
  });
});

describe('readOpenApi: 3.0 and 3.1 stay as they are', () => {
  it.each([
    ['3.0.3', { type: 'string', nullable: true }],
    ['3.1.0', { type: ['string', 'null'] }],
  ])('%s', (openapi, schema) => {
    const doc = {
      openapi,
      info: { title: 'T', version: '1' },
      paths: {},
      components: { schemas: { A: schema } },
    };
    const result = readOpenApi({ text: json(doc), file: 'api.json' });
    expect(result.ok).toBe(true);
    expect(result.version).toBe(openapi.slice(0, 3));
    expect(result.document).toEqual(doc);
  });
});
