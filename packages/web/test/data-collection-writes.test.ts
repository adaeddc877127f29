import type { Call } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { entityCalls, MissingCallError } from '../src/data/entity-calls';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { apiOf, loadExample } from './support/load-example';

// Regression (issue 39): an edit of one supplier went to `PUT /suppliers/` ("Update one or more
// suppliers"), and only the server's own guard stopped it from rewriting every record. Whatever order a
// specification lists its calls in, one record's read, update or delete never goes to the list's path.
const shop = loadExample('shop.yaml');
const shopCalls = shop.calls.shown ? shop.calls.items : [];
const bulk = (method: Call['method'], purpose: Call['purpose']): Call => ({
  name: `${purpose}Customers${method}`,
  method,
  path: '/customers/',
  purpose,
  entity: 'Customer',
  parameters: [],
  filters: [],
});

function withCalls(calls: Call[]) {
  const model = { ...shop, calls: { ...shop.calls, shown: true as const, items: calls } };
  return { model, api: { ...apiOf(shop), calls } };
}

describe('calls for one record', () => {
  it('skip an update or delete at the list’s path, listed first or alone', () => {
    const first = withCalls([bulk('PUT', 'update'), bulk('DELETE', 'delete'), ...shopCalls]);
    const calls = entityCalls(first.api, first.model, 'Customer');
    expect(calls.update?.path).toBe('/customers/{id}');
    expect(calls.delete?.path).not.toBe('/customers/');

    const alone = withCalls([
      ...shopCalls.filter((call) => call.entity !== 'Customer' || call.purpose === 'list'),
      bulk('PATCH', 'update'),
    ]);
    expect(entityCalls(alone.api, alone.model, 'Customer').update).toBeUndefined();
  });

  it('never send one record’s update to the collection, even when it is the only update call', async () => {
    const alone = withCalls([
      ...shopCalls.filter((call) => call.entity !== 'Customer' || call.purpose === 'list'),
      bulk('PATCH', 'update'),
    ]);
    const sent: string[] = [];
    const data = createHttpDataProvider(alone.api, alone.model, {
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    await expect(
      data.update({ entity: 'Customer', id: '1', values: { name: 'Anna' } }),
    ).rejects.toBeInstanceOf(MissingCallError);
    expect(sent).toEqual([]);
  });
});

describe('the main call of a purpose', () => {
  // Regression (issue 39): `GET /suppliers/{id}/parts` came before `GET /parts/` in the document, and the
  // parts list asked for a supplier's id it did not have ("Something went wrong").
  it('is the one that needs the fewest parents, whichever is listed first', () => {
    const nested: Call = {
      name: 'listCustomerOrders',
      method: 'GET',
      path: '/customers/{customerId}/orders',
      purpose: 'list',
      entity: 'Order',
      parameters: [{ name: 'customerId', in: 'path', required: true, type: { kind: 'text' } }],
      filters: [],
    };
    const { model, api } = withCalls([nested, ...shopCalls]);
    expect(entityCalls(api, model, 'Order').list?.path).toBe('/orders');
    expect(entityCalls(api, model, 'Order').lists.map((call) => call.name)).toContain('listCustomerOrders');
  });
});
