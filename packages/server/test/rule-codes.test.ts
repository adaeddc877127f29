// Rule codes (point 5): a 422 whose errors all come from rules of one code carries that code, for the
// error catalogue to match; each field error carries its rule's code; otherwise VALIDATION_FAILED.
import type { Model, Rule } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';
import { ADDRESS, customerAndProduct } from './support/shop-records';
import { signInAs } from './support/sign-in';

/** No more than three lines, as a second rule with a code of its own. */
const fewLines: Rule = {
  name: 'few-lines',
  entity: 'Order',
  check: 'record.lines.size() <= 3',
  message: 'Take at most three lines.',
  field: 'lines',
  code: 'TOO_MANY_LINES',
  on: ['create', 'update'],
};

/** The rich example with these codes on its rules and no others; `extra` rules are added after them. */
function withCodes(codes: Record<string, string>, extra: Rule[] = []): Model {
  const model = structuredClone(exampleModel());
  if (!model.validation.shown) throw new Error('point 5 is shown in the shop');
  for (const rule of model.validation.rules) {
    const code = rule.name === undefined ? undefined : codes[rule.name];
    // Only the codes named here: the shop's own code on its order total rule is replaced or removed.
    if (code !== undefined) rule.code = code;
    else delete rule.code;
  }
  model.validation.rules.push(...extra);
  return model;
}

describe('rule codes in the prototype API’s answers', () => {
  let app: FastifyInstance | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await app?.close();
    await store?.close();
  });

  /** Posts an order of `lines` lines of 600 x 99 EUR (over MAX_ORDER_TOTAL from one line). */
  async function postOrder(model: Model, lines: number, unitPrice = 99) {
    store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    app = await buildApp({ model, store });
    const owner = await signInAs(app, store, 'owner');
    const { customer, product } = await customerAndProduct(store);
    return app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { authorization: owner.authorization },
      payload: {
        customer: customer.id,
        shippingAddress: ADDRESS,
        lines: Array.from({ length: lines }, () => ({ product: product.id, quantity: 600, unitPrice })),
      },
    });
  }

  it('answers the rule’s code when the rule that refused names one', async () => {
    const answer = await postOrder(withCodes({ 'total-within-limit': 'ORDER_TOTAL_LIMIT' }), 1);
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({
      type: '/problems/order-total-limit',
      title: 'Invalid values',
      status: 422,
      detail: 'An order may total at most 50,000 EUR; split it into two orders.',
      code: 'ORDER_TOTAL_LIMIT',
      errors: [
        {
          pointer: '/lines',
          code: 'ORDER_TOTAL_LIMIT',
          detail: 'An order may total at most 50,000 EUR; split it into two orders.',
        },
      ],
    });
  });

  it('stays VALIDATION_FAILED for a rule without a code, and for rules of different codes', async () => {
    const plain = await postOrder(withCodes({}), 1);
    expect(plain.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ pointer: '/lines', code: 'rule' }],
    });
    await app?.close();
    await store?.close();

    const two = await postOrder(withCodes({ 'total-within-limit': 'ORDER_TOTAL_LIMIT' }, [fewLines]), 4);
    expect(two.json().code).toBe('VALIDATION_FAILED');
    expect(two.json().errors.map((error: { code: string }) => error.code)).toEqual([
      'ORDER_TOTAL_LIMIT',
      'TOO_MANY_LINES',
    ]);
    await app?.close();
    await store?.close();

    // Only the second rule refuses: its code alone.
    const one = await postOrder(withCodes({ 'total-within-limit': 'ORDER_TOTAL_LIMIT' }, [fewLines]), 4, 1);
    expect(one.json()).toMatchObject({ code: 'TOO_MANY_LINES', errors: [{ code: 'TOO_MANY_LINES' }] });
  });
});

// A guard that threw was taken as "not met", with no log line: the step was closed for good and nobody
// told why (issue 42). It is the server's fault now, answered and logged as one.
describe('a guard that cannot be evaluated', () => {
  it('answers 500 EVALUATION_FAILED with a reference, and logs the same reference with the cause', async () => {
    const model = structuredClone(exampleModel());
    const machine = model.states.shown ? model.states.machines.find((m) => m.entity === 'Order') : undefined;
    const place = machine?.transitions.find((transition) => transition.name === 'place');
    if (!place) throw new Error('the shop places orders');
    // A date field compared with a text: typed as dyn by the reader, so only evaluation finds it out.
    place.guard = 'record.placedOn <= "2026-09-30" || size(record.lines) > 0';
    const store = await openStore({ model, url: 'sqlite::memory:' });
    const logged: Array<[string, unknown]> = [];
    try {
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      const app = await buildApp({
        model,
        store,
        onServerError: (reference, error) => logged.push([reference, error]),
      });
      const owner = await signInAs(app, store, 'owner');
      const { customer, product } = await customerAndProduct(store);
      const created = await app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { authorization: owner.authorization },
        payload: {
          customer: customer.id,
          shippingAddress: ADDRESS,
          placedOn: '2026-06-01',
          lines: [{ product: product.id, quantity: 1, unitPrice: 5 }],
        },
      });
      expect(created.statusCode).toBe(201);
      const placed = await app.inject({
        method: 'POST',
        url: `/api/orders/${created.json().id}/place`,
        headers: { authorization: owner.authorization },
      });
      expect(placed.statusCode).toBe(500);
      const body = placed.json();
      expect(body.code).toBe('EVALUATION_FAILED');
      expect(body.detail).toMatch(/^The condition of "Place order" could not be evaluated/);
      expect(logged).toEqual([[body.reference, expect.objectContaining({ message: body.detail })]]);
      await app.close();
    } finally {
      await store.close();
    }
  });
});
