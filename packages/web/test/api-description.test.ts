import { apiOf, notShownModel } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { loadExample } from './support/load-example';

describe('the calls a client makes, from /spec.json', () => {
  it('takes point 7 from the model when the payload does not repeat it', () => {
    const shop = loadExample('shop.yaml');
    const api = apiOf(shop, { base: '/api', conventional: false });
    expect(api.calls).toBe(shop.calls.shown ? shop.calls.items : undefined);
    expect(api.calls.map((call) => call.name)).toContain('listOrders');
  });

  it('takes the conventional calls the payload lists, which the model does not hold', () => {
    const model = notShownModel('Nameless');
    const calls = [
      {
        name: 'listThings',
        method: 'GET' as const,
        path: '/things',
        purpose: 'list' as const,
        parameters: [],
        filters: [],
      },
    ];
    expect(apiOf(model, { base: '/api', conventional: true, calls }).calls).toBe(calls);
    expect(apiOf(model, { base: '/api', conventional: true }).calls).toEqual([]);
  });
});
