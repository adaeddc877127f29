import type { ApiDescription, Model } from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import { describe, expect, it } from 'vitest';
import { screenBelow } from '../src/app/routes';
import { requireCall } from '../src/data/entity-calls';
import { createHttpDataProvider } from '../src/data/http-data-provider';

// An API that lists the same records in two places (every address, and an account's addresses), as
// Twilio's does: the record's parents come from the screen's route and choose the nested call.
const address = {
  type: 'object',
  properties: { sid: { type: 'string' }, street: { type: 'string' } },
};
const ok = (schema: unknown) => ({
  description: 'ok',
  content: { 'application/json': { schema } },
});
const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Address' } } } };
const document = {
  openapi: '3.0.3',
  info: { title: 'Nested' },
  paths: {
    '/addresses': {
      get: {
        operationId: 'listAddresses',
        responses: { '200': ok({ type: 'array', items: { $ref: '#/components/schemas/Address' } }) },
      },
      post: {
        operationId: 'createAddress',
        requestBody: body,
        responses: { '201': ok({ $ref: '#/components/schemas/Address' }) },
      },
    },
    '/accounts/{accountSid}/addresses': {
      parameters: [{ name: 'accountSid', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'listAccountAddresses',
        responses: { '200': ok({ type: 'array', items: { $ref: '#/components/schemas/Address' } }) },
      },
      post: {
        operationId: 'createAccountAddress',
        requestBody: body,
        responses: { '201': ok({ $ref: '#/components/schemas/Address' }) },
      },
    },
    '/accounts/{accountSid}/addresses/{sid}': {
      parameters: [
        { name: 'accountSid', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'sid', in: 'path', required: true, schema: { type: 'string' } },
      ],
      get: {
        operationId: 'getAccountAddress',
        responses: { '200': ok({ $ref: '#/components/schemas/Address' }) },
      },
      delete: { operationId: 'deleteAccountAddress', responses: { '204': { description: 'gone' } } },
    },
  },
  components: { schemas: { Address: address } },
};

function imported(): Model {
  const result = importOpenApi({ text: JSON.stringify(document), file: 'nested.json' });
  if (!result.model) throw new Error(JSON.stringify(result.issues));
  return result.model;
}

function provider(model: Model) {
  const sent: string[] = [];
  const api: ApiDescription = {
    base: '/api',
    conventional: false,
    calls: model.calls.shown ? model.calls.items : [],
  };
  const data = createHttpDataProvider(api, model, {
    fetch: async (input, init = {}) => {
      sent.push(`${init.method ?? 'GET'} ${String(input)}`);
      return Response.json({ sid: 'AD1', street: 'Main' }, { status: init.method === 'POST' ? 201 : 200 });
    },
    retry: false,
  });
  return { data, sent };
}

describe('records under a parent', () => {
  it('creates, reads and deletes under the parent the route gives, and at the top without one', async () => {
    const { data, sent } = provider(imported());
    await data.create({ entity: 'Address', values: { street: 'Main' }, path: { accountSid: 'AC 1' } });
    await data.create({ entity: 'Address', values: { street: 'Main' } });
    await data.get({ entity: 'Address', id: 'AD1', path: { accountSid: 'AC1', sid: 'AD1' } });
    await data.delete({ entity: 'Address', id: 'AD1', path: { accountSid: 'AC1' } });
    expect(sent).toEqual([
      'POST /api/accounts/AC%201/addresses',
      'POST /api/addresses',
      'GET /api/accounts/AC1/addresses/AD1',
      'DELETE /api/accounts/AC1/addresses/AD1',
    ]);
  });

  it('chooses the first call of a purpose when the parents at hand fill no other', () => {
    const model = imported();
    const { data } = provider(model);
    const calls = data.calls('Address');
    expect(requireCall(calls, 'Address', 'create').name).toBe('createAddress');
    expect(requireCall(calls, 'Address', 'create', { other: 'x' }).name).toBe('createAddress');
    expect(requireCall(calls, 'Address', 'create', { accountSid: 'AC1' }).name).toBe('createAccountAddress');
  });

  it("gives each list its own New form and record screen, not the entity's first", () => {
    const model = imported();
    expect(screenBelow(model, 'create', 'Address', '/accounts/:accountSid/addresses')?.route).toBe(
      '/accounts/:accountSid/addresses/new',
    );
    expect(screenBelow(model, 'create', 'Address', '/addresses')?.route).toBe('/addresses/new');
    expect(screenBelow(model, 'detail', 'Address', '/accounts/:accountSid/addresses')?.route).toBe(
      '/accounts/:accountSid/addresses/:sid',
    );
  });
});
