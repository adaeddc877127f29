import type { ApiDescription, Entity, Model } from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import { describe, expect, it } from 'vitest';
import { rowDetail } from '../src/app/routes';
import { createHttpDataProvider } from '../src/data/http-data-provider';

// Two ways real documents describe reading one record that a list shows, and what the client makes of
// them: LaunchDarkly's item path answers its list's envelope; Jira lists property keys and reads each
// property, another record, at the item path below the list.
const ok = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

const document = {
  openapi: '3.0.3',
  info: { title: 'Odd reads' },
  paths: {
    '/approvals': { get: { operationId: 'listApprovals', responses: { '200': ok(ref('Approvals')) } } },
    '/approvals/{approvalId}': {
      parameters: [param('approvalId')],
      get: { operationId: 'getApproval', responses: { '200': ok(ref('Approvals')) } },
    },
    '/issues/{issueId}/properties': {
      parameters: [param('issueId')],
      get: { operationId: 'listPropertyKeys', responses: { '200': ok(ref('PropertyKeys')) } },
    },
    '/issues/{issueId}/properties/{propertyKey}': {
      parameters: [param('issueId'), param('propertyKey')],
      get: { operationId: 'getProperty', responses: { '200': ok(ref('Property')) } },
    },
  },
  components: {
    schemas: {
      Approval: { type: 'object', properties: { _id: { type: 'string' }, status: { type: 'string' } } },
      Approvals: { type: 'object', properties: { items: { type: 'array', items: ref('Approval') } } },
      PropertyKey: { type: 'object', properties: { key: { type: 'string' }, self: { type: 'string' } } },
      PropertyKeys: { type: 'object', properties: { keys: { type: 'array', items: ref('PropertyKey') } } },
      Property: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } },
    },
  },
};

function imported(): Model {
  const result = importOpenApi({ text: JSON.stringify(document), file: 'odd.json' });
  if (!result.model) throw new Error(JSON.stringify(result.issues));
  return result.model;
}

const entity = (model: Model, name: string): Entity | undefined =>
  model.entities.shown ? model.entities.items.find((item) => item.name === name) : undefined;

describe('reads that documents describe oddly', () => {
  it("reads the first record of an item answer that is its list's envelope", async () => {
    const model = imported();
    const calls = model.calls.shown ? model.calls.items : [];
    expect(calls.find((call) => call.name === 'getApproval')?.purpose).toBe('get');
    expect(model.screens.shown && model.screens.items.map((s) => `${s.kind} ${s.route}`)).toContain(
      'detail /approvals/:approvalId',
    );
    const api: ApiDescription = { base: '/api', conventional: false, calls };
    const data = createHttpDataProvider(api, model, {
      fetch: async () => Response.json({ items: [{ _id: 'a1', status: 'pending' }] }),
      retry: false,
    });
    const { record } = await data.get({ entity: 'Approval', id: 'a1' });
    expect(record).toEqual({ _id: 'a1', status: 'pending' });
  });

  it('opens, from a row of property keys, the property that the item path below the list reads', () => {
    const model = imported();
    expect(entity(model, 'PropertyKey')?.key).toBe('key');
    expect(rowDetail(model, 'PropertyKey', '/issues/:issueId/properties')?.route).toBe(
      '/issues/:issueId/properties/:propertyKey',
    );
    // A list with nothing below it opens nothing.
    expect(rowDetail(model, 'PropertyKey', '/issues/:issueId')).toBeUndefined();
  });
});
