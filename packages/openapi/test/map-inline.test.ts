import { describe, expect, it } from 'vitest';
import { type OpenApi3Like, toModel } from '../src/to-model';

// A document with no components at all, as SpaceTraders' is: its records are described only inline, in
// the answers of its calls. The client still gets its lists and records, named by their paths.
const ok = (schema: unknown) => ({
  '200': { description: 'ok', content: { 'application/json': { schema } } },
});
const system = () => ({
  type: 'object',
  properties: { symbol: { type: 'string' }, sectorSymbol: { type: 'string' }, x: { type: 'integer' } },
});
const waypoint = () => ({
  type: 'object',
  properties: { symbol: { type: 'string' }, kind: { type: 'string' } },
});
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

const inlineOnly: OpenApi3Like = {
  openapi: '3.0.3',
  info: { title: 'Inline' },
  paths: {
    '/systems': {
      get: {
        responses: ok({
          type: 'object',
          properties: { data: { type: 'array', items: system() }, meta: { type: 'object' } },
        }),
      },
    },
    '/systems/{systemSymbol}': {
      parameters: [param('systemSymbol')],
      get: { responses: ok({ type: 'object', properties: { data: system() } }) },
    },
    '/systems/{systemSymbol}/waypoints': {
      parameters: [param('systemSymbol')],
      get: { responses: ok({ type: 'array', items: waypoint() }) },
    },
    '/my/waypoints': { get: { responses: ok({ type: 'array', items: waypoint() }) } },
  },
} as OpenApi3Like;

describe('documents whose records are only inline', () => {
  it('name each list’s records by its path, find them in the item read, and report the names as inferred', () => {
    const { model, report } = toModel(inlineOnly, { file: 'inline.json' });
    const entities = model.entities.shown ? model.entities.items : [];
    expect(entities.map((entity) => [entity.name, entity.key])).toEqual(
      expect.arrayContaining([
        ['System', 'symbol'],
        // No item path reads a waypoint, so nothing names its key.
        ['Waypoint', undefined],
      ]),
    );
    // The same inline record listed in two places is one entity.
    expect(entities.filter((entity) => entity.name.startsWith('Waypoint'))).toHaveLength(1);
    expect(model.screens.shown && model.screens.items.map((s) => `${s.kind} ${s.route}`)).toEqual(
      expect.arrayContaining([
        'list /systems',
        'detail /systems/:systemSymbol',
        'list /systems/:systemSymbol/waypoints',
        'list /my/waypoints',
      ]),
    );
    expect(JSON.stringify(report)).toContain(
      'the records that GET /systems lists are inline, so entity \\"System\\" is named by its path',
    );
  });

  it('leave inline records that copy a named schema to that schema', () => {
    const named = structuredClone(inlineOnly);
    named.components = { schemas: { StarSystem: system() } };
    const { model } = toModel(named, { file: 'inline.json' });
    const names = model.entities.shown ? model.entities.items.map((entity) => entity.name) : [];
    expect(names).toContain('StarSystem');
    expect(names).not.toContain('System');
  });
});
