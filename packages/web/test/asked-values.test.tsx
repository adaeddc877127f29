import type { ApiDescription, Model } from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { askedParameters, createConnectionValues } from '../src/data/connection-values';
import { createHttpDataProvider } from '../src/data/http-data-provider';

// An API that needs an organisation in the query and a version header on every call, beside its own
// page, sort and filter parameters and an API key in the query (which the client never sends).
const parameters = [
  {
    name: 'orgId',
    in: 'query',
    required: true,
    schema: { type: 'string' },
    description: 'Your organisation',
  },
  { name: 'X-Api-Version', in: 'header', required: true, schema: { type: 'string' } },
  { name: 'api_key', in: 'query', required: true, schema: { type: 'string' } },
  { name: 'page', in: 'query', schema: { type: 'integer' } },
  { name: 'name', in: 'query', schema: { type: 'string' } },
];
const project = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } };
const openapi = {
  openapi: '3.0.3',
  info: { title: 'Projects' },
  paths: {
    '/projects': {
      get: {
        parameters,
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Project' } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: { Project: project },
    securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } },
  },
};

function model(): Model {
  const result = importOpenApi({ text: JSON.stringify(openapi), file: 'projects.json' });
  if (!result.model) throw new Error(JSON.stringify(result.issues));
  return result.model;
}

afterEach(() => sessionStorage.clear());

describe('values the API asks for with its calls', () => {
  it('are the required query and header parameters no screen fills, never a key', () => {
    const m = model();
    const list = m.calls.shown ? m.calls.items[0] : undefined;
    if (!list) throw new Error('no call');
    expect(askedParameters(m, list).map((parameter) => parameter.name)).toEqual(['orgId', 'X-Api-Version']);
  });

  it('are asked once, sent with every call, and kept for the tab', async () => {
    const m = model();
    const api: ApiDescription = {
      base: '/api',
      conventional: false,
      calls: m.calls.shown ? m.calls.items : [],
    };
    const sent: Array<{ url: string; version: string | undefined }> = [];
    const data = createHttpDataProvider(api, m, {
      retry: false,
      fetch: async (input, init = {}) => {
        const headers = (init.headers ?? {}) as Record<string, string>;
        sent.push({ url: String(input), version: headers['X-Api-Version'] });
        return Response.json([{ id: 'p1', name: 'Apollo' }]);
      },
    });
    const user = userEvent.setup();
    render(<App spec={{ model: m, api, data }} initialPath="/projects" locale="en" />);
    // Nothing is sent without the values: the screen asks for them first.
    await user.type(await screen.findByLabelText(/^Org id/), ' acme ');
    await user.type(screen.getByLabelText(/^X-Api-Version/), '2024-01');
    expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toBeTruthy();
    expect(sent).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Use these values' }));
    // The list answered (jsdom draws no virtual rows; the pager counts them).
    expect(await screen.findByText('1 record')).toBeTruthy();
    expect(sent[0]?.url).toMatch(/^\/api\/projects\?(.+&)?orgId=acme(&|$)/);
    expect(sent[0]?.url).not.toContain('api_key');
    expect(sent[0]?.version).toBe('2024-01');
    // Kept for the tab: a new page of the same client finds them.
    expect(createConnectionValues('/api', sessionStorage).get('orgId')).toBe('acme');
  });
});
