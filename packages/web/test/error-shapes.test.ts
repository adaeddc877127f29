import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/data/data-provider';
import { readApiError } from '../src/data/problem-reader';
import { errorView } from '../src/errors/error-view';
import { loadExample } from './support/load-example';

// Real servers rarely answer RFC 9457 problems (issue 39): a 400 naming its field showed as "The request
// was refused", and a 500 that explained itself as "Try again in a moment". Each body here is the shape a
// real server sends, most of them copied from what the server answered.
const read = (status: number, body: unknown, contentType = 'application/json') =>
  readApiError(status, status >= 500 ? 'Internal Server Error' : 'Bad Request', contentType, body);

describe('error answers of real servers', () => {
  it('read Fastify’s validation message as a message on its field (Platformatic)', async () => {
    const error = await read(400, {
      statusCode: 400,
      code: 'FST_ERR_VALIDATION',
      error: 'Bad Request',
      message: 'body/price must be number',
    });
    expect(error.detail).toBe('body/price must be number');
    expect(error.code).toBe('FST_ERR_VALIDATION');
    expect(error.fieldErrors).toEqual([
      { pointer: '/price', message: 'must be number', code: 'FST_ERR_VALIDATION' },
    ]);
    const missing = await read(400, {
      statusCode: 400,
      error: 'Bad Request',
      message: "body must have required property 'name'",
    });
    expect(missing.fieldErrors).toEqual([
      { pointer: '/name', message: "must have required property 'name'" },
    ]);
  });

  it('read errors[] with extensions (Directus, GraphQL servers)', async () => {
    const error = await read(400, {
      errors: [
        {
          message:
            'Validation failed for field "max_participants". Value has to be less than or equal to 60.',
          extensions: { code: 'FAILED_VALIDATION', field: 'max_participants', type: 'lte' },
        },
      ],
    });
    expect(error.code).toBe('FAILED_VALIDATION');
    expect(error.detail).toContain('Validation failed for field "max_participants"');
    expect(error.fieldErrors).toEqual([
      {
        pointer: '/max_participants',
        message: 'Validation failed for field "max_participants". Value has to be less than or equal to 60.',
        code: 'FAILED_VALIDATION',
      },
    ]);
  });

  it('read JSON:API errors, Rails-style keyed errors and FastAPI’s detail list', async () => {
    const jsonApi = await read(
      422,
      {
        errors: [
          {
            status: '422',
            code: 'blank',
            title: 'Invalid',
            detail: 'Name is blank',
            source: { pointer: '/data/attributes/name' },
          },
        ],
      },
      'application/vnd.api+json',
    );
    expect(jsonApi.fieldErrors).toEqual([{ pointer: '/name', message: 'Name is blank', code: 'blank' }]);
    const keyed = await read(422, { errors: { email: ['has already been taken'] } });
    expect(keyed.fieldErrors).toEqual([{ pointer: '/email', message: 'has already been taken' }]);
    const fastApi = await read(422, {
      detail: [{ loc: ['body', 'seats'], msg: 'ensure this value is less than 61', type: 'value_error' }],
    });
    expect(fastApi.fieldErrors).toEqual([
      { pointer: '/seats', message: 'ensure this value is less than 61', code: 'value_error' },
    ]);
  });

  it('read `{ error: "…" }` and `{ error: { message, code } }`', async () => {
    const plain = await read(403, { error: 'Token has no access to this collection' });
    expect(plain.detail).toBe('Token has no access to this collection');
    expect(await read(409, { error: { message: 'Name taken', code: 'DUPLICATE' } })).toMatchObject({
      detail: 'Name taken',
      code: 'DUPLICATE',
    });
  });

  it('show a refusal’s words and its field in the view, and offer no retry for it', async () => {
    const model = loadExample('shop.yaml');
    const view = errorView(
      model,
      await read(400, { statusCode: 400, error: 'Bad Request', message: 'body/name must be string' }),
    );
    expect(view).toMatchObject({ generic: 'invalid', action: 'fix-field', field: '/name' });
    expect(view.detail).toBe('body/name must be string');
  });

  it('show a server error that explains itself, without offering a retry that cannot help', async () => {
    // The shop's catalogue covers 500 itself; this is what a client shows where no entry does.
    const model = { ...loadExample('shop.yaml'), errors: { shown: false as const, reason: 'Not shown.' } };
    const explained = errorView(
      model,
      await read(500, {
        statusCode: 500,
        code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
        error: 'Internal Server Error',
        message: 'FOREIGN KEY constraint failed',
      }),
    );
    expect(explained).toMatchObject({
      generic: 'server',
      action: 'none',
      detail: 'FOREIGN KEY constraint failed',
    });
    // A stack trace is internals: not shown, and the failure may pass, so a retry is offered.
    const traced = errorView(
      model,
      await read(500, { message: 'x is undefined\n    at handler (/srv/app.js:10:5)' }),
    );
    expect(traced.detail).toBeUndefined();
    expect(traced.action).toBe('retry');
    // A gateway's timeout says nothing about the write: a retry may pass.
    expect(errorView(model, await read(504, { message: 'Gateway Timeout' })).action).toBe('retry');
  });

  it('still read RFC 9457 problems as problems', async () => {
    const error = await read(
      422,
      {
        type: 'about:blank',
        title: 'Invalid',
        status: 422,
        code: 'INVALID',
        errors: [{ pointer: '/email', detail: 'Enter an email' }],
      },
      'application/problem+json',
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ title: 'Invalid', code: 'INVALID' });
    expect(error.fieldErrors).toEqual([{ pointer: '/email', message: 'Enter an email' }]);
  });
});
