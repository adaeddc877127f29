import type { ApiDescription, Model } from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { createHttpDataProvider } from '../src/data/http-data-provider';

// An API whose create takes another shape than the record it answers (Docker Hub's access tokens: the
// request has a label and scopes, the record a uuid and dates), and whose item read is documented as an
// array (the OAI petstore's mistake).
const token = {
  type: 'object',
  properties: {
    uuid: { type: 'string', readOnly: true },
    token_label: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
};
const request = {
  type: 'object',
  required: ['token_label', 'note'],
  properties: { token_label: { type: 'string' }, note: { type: 'string' } },
};
const json = (schema: unknown) => ({ 'application/json': { schema } });
const document = {
  openapi: '3.0.3',
  info: { title: 'Tokens' },
  paths: {
    '/tokens': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/Token' } }),
          },
        },
      },
      post: {
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewToken' }) },
        responses: { '201': { description: 'made', content: json({ $ref: '#/components/schemas/Token' }) } },
      },
    },
    '/tokens/{uuid}': {
      parameters: [{ name: 'uuid', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/Token' } }),
          },
        },
      },
    },
  },
  components: { schemas: { Token: token, NewToken: request } },
};

function setUp(path = '/tokens/new') {
  const result = importOpenApi({ text: JSON.stringify(document), file: 'tokens.json' });
  if (!result.model) throw new Error(JSON.stringify(result.issues));
  const model: Model = result.model;
  const api: ApiDescription = {
    base: '/api',
    conventional: false,
    calls: model.calls.shown ? model.calls.items : [],
  };
  const sent: Array<{ method: string; url: string; body: unknown }> = [];
  const data = createHttpDataProvider(api, model, {
    retry: false,
    fetch: async (input, init = {}) => {
      const method = init.method ?? 'GET';
      sent.push({
        method,
        url: String(input),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      const record = { uuid: 'tk-1', token_label: 'ci', created_at: '2026-01-01T00:00:00Z' };
      return Response.json(method === 'POST' ? record : [record], { status: method === 'POST' ? 201 : 200 });
    },
  });
  const user = userEvent.setup();
  render(<App spec={{ model, api, data }} initialPath={path} locale="en" />);
  return { user, sent };
}

describe('a create form built from the request body', () => {
  it('asks for the request’s fields, sends them, and shows the record the API answers', async () => {
    const { user, sent } = setUp();
    // The request's fields, required as the request says; none of the record's own.
    const label = await screen.findByLabelText(/^Token label/);
    expect(screen.getByLabelText(/^Note/).hasAttribute('required')).toBe(true);
    expect(screen.queryByLabelText(/^Created at/)).toBeNull();
    await user.type(label, 'ci');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText(/^Note/).getAttribute('aria-invalid')).toBe('true'));
    expect(sent.filter((request) => request.method === 'POST')).toEqual([]);
    await user.type(screen.getByLabelText(/^Note/), 'for the build');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.some((request) => request.method === 'POST')).toBe(true));
    expect(sent.find((request) => request.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/tokens',
      body: { token_label: 'ci', note: 'for the build' },
    });
    // The answer is the record: the screen goes to it (named by its key, which is not repeated below).
    expect(await screen.findByRole('heading', { name: /tk-1/ })).toBeTruthy();
    expect(screen.getByText('ci')).toBeTruthy();
  });

  it('reads a record whose read is documented as an array as its first record', async () => {
    const { sent } = setUp('/tokens/tk-1');
    expect(await screen.findByText('ci')).toBeTruthy();
    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/tokens/tk-1']);
  });
});
