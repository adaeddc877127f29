import { describe, expect, it } from 'vitest';
import { keyFieldFor } from '../src/map/property-reading';
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

  it("are found when every path ends in a format suffix, as Twilio's `/Accounts/{Sid}.json` does", () => {
    const suffixed = widgets(ref('Widget'));
    suffixed.paths = Object.fromEntries(
      Object.entries(suffixed.paths ?? {}).map(([path, item]) => [`${path}.json`, item]),
    );
    const { model } = toModel(suffixed, { file: 'widgets.json' });
    expect(model.entities.shown && model.entities.items.find((e) => e.name === 'Widget')?.key).toBe('key');
    // Routes drop the suffix; calls keep the path as documented.
    expect(model.screens.shown && model.screens.items.map((s) => `${s.kind} ${s.route}`)).toEqual(
      expect.arrayContaining(['list /widgets', 'detail /widgets/:widgetKey']),
    );
    expect(model.calls.shown && model.calls.items.map((call) => `${call.purpose} ${call.path}`)).toEqual([
      'list /widgets.json',
      'get /widgets/{widgetKey}.json',
    ]);
  });

  it('keep the suffix where `/a.json` and `/a` are both documented, as two resources', () => {
    const both = widgets(ref('Widget'));
    both.paths = { ...both.paths, '/widgets.json': both.paths?.['/widgets'] };
    const { model } = toModel(both, { file: 'widgets.json' });
    const routes = model.screens.shown ? model.screens.items.map((s) => s.route) : [];
    expect(routes).toEqual(expect.arrayContaining(['/widgets', '/widgets.json']));
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

describe('formats', () => {
  it('are kept as the document says, and those the form cannot check are reported as only shown', () => {
    const doc = widgets(ref('Widget'));
    const widget = doc.components?.schemas?.Widget as { properties: Record<string, unknown> };
    widget.properties.logo = { type: 'string', format: 'byte' };
    widget.properties.phone = { type: 'string', format: 'phone-number' };
    widget.properties.site = { type: 'string', format: 'uri' };
    const { model, report } = toModel(doc, { file: 'widgets.json' });
    const fields = model.entities.shown
      ? (model.entities.items.find((e) => e.name === 'Widget')?.fields ?? [])
      : [];
    expect(Object.fromEntries(fields.map((f) => [f.name, f.format]))).toMatchObject({
      logo: 'byte',
      phone: 'phone-number',
      site: 'url',
    });
    const skipped = JSON.stringify(report);
    expect(skipped).toContain(
      'formats of \\"Widget\\" that are not checked, only shown: phone (phone-number)',
    );
    expect(skipped).not.toContain('logo (byte)');
  });
});

describe('navigation groups', () => {
  it("are the operations' first tags", () => {
    const doc = widgets(ref('Widget'));
    const list = doc.paths?.['/widgets'] as { get: Record<string, unknown> };
    list.get.tags = ['Inventory', 'Other'];
    const { model } = toModel(doc, { file: 'widgets.json' });
    const screens = model.screens.shown ? model.screens.items : [];
    expect(screens.map((s) => [s.kind, s.group])).toEqual([
      ['list', 'Inventory'],
      ['detail', undefined],
    ]);
  });
});

describe('list columns', () => {
  it('are the nested values of a record that has no scalar ones, rather than none', () => {
    const doc = widgets(ref('Widget'));
    const schemas = doc.components?.schemas as Record<string, unknown>;
    schemas.Widget = {
      type: 'object',
      properties: {
        request: { type: 'object', properties: { url: { type: 'string' } } },
        response: { type: 'object', properties: { status: { type: 'integer' } } },
      },
    };
    const { model, report } = toModel(doc, { file: 'widgets.json' });
    const list = model.screens.shown ? model.screens.items.find((s) => s.kind === 'list') : undefined;
    expect(list?.kind === 'list' && list.columns).toEqual(['request', 'response']);
    expect(JSON.stringify(report)).toContain('fields (it has no scalar ones)');
  });
});

describe('values the document leaves open', () => {
  it('are shown read-only, as the JSON text the API sends, and reported', () => {
    const doc = widgets(ref('Widget'));
    const widget = doc.components?.schemas?.Widget as { properties: Record<string, unknown> };
    widget.properties.request = { description: 'Whatever the call carried.', nullable: true };
    widget.properties.labels = { type: 'object', additionalProperties: { type: 'string' } };
    const { model, report } = toModel(doc, { file: 'widgets.json' });
    const fields = model.entities.shown
      ? (model.entities.items.find((e) => e.name === 'Widget')?.fields ?? [])
      : [];
    expect(fields.filter((f) => ['request', 'labels'].includes(f.name))).toEqual([
      expect.objectContaining({ name: 'request', kind: 'text', readOnly: true }),
      expect.objectContaining({ name: 'labels', kind: 'text', readOnly: true }),
    ]);
    expect(JSON.stringify(report)).toContain('its schema gives no type: shown read-only');
  });
});
