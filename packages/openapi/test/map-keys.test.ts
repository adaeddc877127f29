import { describe, expect, it } from 'vitest';
import { keyFieldFor } from '../src/map/entities';
import { type OpenApi3Like, toModel } from '../src/to-model';

// Record keys come from the document: the item path's parameter and the field that fills it, whatever
// either is called, and whether the item's answer is the record itself or wraps or extends it.
const ok = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function widgets(itemAnswer: unknown, param = 'widgetKey'): OpenApi3Like {
  return {
    openapi: '3.0.3',
    info: { title: 'Widgets' },
    paths: {
      '/widgets': { get: { responses: { '200': ok({ type: 'array', items: ref('Widget') }) } } },
      [`/widgets/{${param}}`]: {
        parameters: [{ name: param, in: 'path', required: true, schema: { type: 'string' } }],
        get: { responses: { '200': ok(itemAnswer) } },
      },
    },
    components: {
      schemas: {
        Widget: {
          type: 'object',
          properties: { id: { type: 'integer' }, key: { type: 'string' }, name: { type: 'string' } },
        },
      },
    },
  } as OpenApi3Like;
}

const keyOf = (doc: OpenApi3Like) => {
  const { model } = toModel(doc, { file: 'widgets.json' });
  return model.entities.shown ? model.entities.items.find((e) => e.name === 'Widget')?.key : undefined;
};

describe('record keys', () => {
  it('are the field the item path names, in another case or as the end of its name', () => {
    expect(keyFieldFor('slug', ['id', 'slug'])).toBe('slug');
    expect(keyFieldFor('Sid', ['sid', 'name'])).toBe('sid');
    expect(keyFieldFor('fine_tune_id', ['fineTuneId', 'id'])).toBe('fineTuneId');
    expect(keyFieldFor('widgetKey', ['id', 'key', 'name'])).toBe('key');
    expect(keyFieldFor('AccountSid', ['account_sid', 'sid'])).toBe('account_sid');
    expect(keyFieldFor('petId', ['id', 'name'])).toBe('id');
    expect(keyFieldFor('anything', ['id', 'name'])).toBeUndefined();
  });

  it('follow the item path before the convention of `id`, and say so in the report', () => {
    const { model, report } = toModel(widgets(ref('Widget')), { file: 'widgets.json' });
    expect(model.entities.shown && model.entities.items.find((e) => e.name === 'Widget')?.key).toBe('key');
    expect(JSON.stringify(report)).toContain(`its item path's {widgetKey} is filled by its field \\"key\\"`);
    // The detail route takes the key, so a row links to `/widgets/<key>`.
    expect(model.screens.shown && model.screens.items.map((s) => s.route)).toContain('/widgets/:widgetKey');
  });

  it('are found when the item answer extends the record or when no field fits the path', () => {
    expect(
      keyOf(
        widgets({ allOf: [ref('Widget'), { type: 'object', properties: { secret: { type: 'string' } } }] }),
      ),
    ).toBe('key');
    expect(keyOf(widgets(ref('Widget'), 'widgetId'))).toBe('id');
    expect(keyOf(widgets(ref('Widget'), 'ref'))).toBe('id');
  });
});

describe('reads and forms as the document says', () => {
  it('reads one record at an item path below a list, even when the document says it answers an array', () => {
    const { model, report } = toModel(widgets({ type: 'array', items: ref('Widget') }), {
      file: 'widgets.json',
    });
    const calls = model.calls.shown ? model.calls.items : [];
    expect(calls.find((call) => call.path === '/widgets/{widgetKey}')).toMatchObject({
      purpose: 'get',
      response: { shape: 'array', entity: 'Widget' },
    });
    expect(model.screens.shown && model.screens.items.map((s) => `${s.kind} ${s.route}`)).toContain(
      'detail /widgets/:widgetKey',
    );
    expect(JSON.stringify(report)).toContain('of which the client shows the first record');
  });

  it('reads a record that holds a list of its own as one record, not as an envelope', () => {
    const document = widgets(ref('Widget'));
    const schemas = (document.components as { schemas: Record<string, { properties: object }> }).schemas;
    schemas.Widget = {
      properties: {
        ...schemas.Widget?.properties,
        parts: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } },
      },
    };
    const { model } = toModel(document, { file: 'widgets.json' });
    const calls = model.calls.shown ? model.calls.items : [];
    expect(calls.find((call) => call.path === '/widgets/{widgetKey}')).toMatchObject({
      purpose: 'get',
      response: { shape: 'one', entity: 'Widget' },
    });
  });

  it('makes no create form for a POST that takes no request body, and says why', () => {
    const document = widgets(ref('Widget'));
    const paths = document.paths as Record<string, Record<string, unknown>>;
    paths['/widgets'] = { ...paths['/widgets'], post: { responses: { '201': ok(ref('Widget')) } } };
    const { model, report } = toModel(document, { file: 'widgets.json' });
    expect(model.screens.shown && model.screens.items.map((s) => s.kind)).not.toContain('create');
    expect(JSON.stringify(report)).toContain(
      'no create screen for POST /widgets: the call takes no request body',
    );
  });
});
