import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { injectRequest } from './support/in-process-api';
import { apiOf, loadExample } from './support/load-example';

// A server of a few lines that refuses a new customer's email in each common shape real servers use
// (issue 39): whatever the shape, the server's message must land on the Email field. The shop's own
// catalogue is left out, so the words shown can only be the server's.
const model = { ...loadExample('shop.yaml'), errors: { shown: false as const, reason: 'Not shown.' } };
const api = apiOf(model);
const MESSAGE = 'This address bounced last week';

const SHAPES: Record<string, { status: number; body: unknown }> = {
  fastify: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: `body/email ${MESSAGE}` } },
  directus: {
    status: 400,
    body: { errors: [{ message: MESSAGE, extensions: { code: 'FAILED_VALIDATION', field: 'email' } }] },
  },
  'json:api': {
    status: 422,
    body: { errors: [{ detail: MESSAGE, source: { pointer: '/data/attributes/email' } }] },
  },
  rails: { status: 422, body: { errors: { email: [MESSAGE] } } },
  fastapi: { status: 422, body: { detail: [{ loc: ['body', 'email'], msg: MESSAGE, type: 'value_error' }] } },
  graphql: {
    status: 400,
    body: { errors: [{ message: MESSAGE, path: ['email'], extensions: { code: 'BAD_USER_INPUT' } }] },
  },
};

const app = Fastify();
let shape = 'fastify';
app.post('/api/customers', async (_request, reply) => {
  const answer = SHAPES[shape];
  return reply.code(answer?.status ?? 500).send(answer?.body);
});
beforeAll(() => app.ready());
afterAll(() => app.close());

function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('a server’s refusal in its own shape', () => {
  for (const name of Object.keys(SHAPES)) {
    it(`lands on its field (${name})`, async () => {
      shape = name;
      const data = createHttpDataProvider(api, model, {
        fetch: (input, init) => injectRequest(app, input, init),
        retry: false,
      });
      const user = userEvent.setup();
      const view = render(<App spec={{ model, api, data }} initialPath="/customers/new" locale="en" />);
      await user.type(await screen.findByLabelText(/^Name/), 'Anna Berg');
      const email = screen.getByLabelText(/^Email/);
      await user.type(email, 'anna@example.com');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findAllByText(new RegExp(MESSAGE));
      expect(email.getAttribute('aria-invalid')).toBe('true');
      expect(describedBy(email)).toContain(MESSAGE);
      // A refusal is not offered a retry.
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
      view.unmount();
    });
  }
});
