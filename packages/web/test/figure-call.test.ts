// A figure as an API answers it (issue 21): the prototype API's `{ value }` or `{ groups }`, and what a
// hostile or broken answer becomes: never markup, never millions of groups, never a crash.

import type { ApiDescription, DashboardScreen, Figure } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { readFigureAnswer } from '../src/data/figure-call';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const dashboard = shop.screens.shown
  ? (shop.screens.items.find((screen) => screen.kind === 'dashboard') as DashboardScreen)
  : undefined;
const revenue = dashboard?.figures.find((figure) => figure.name === 'revenue') as Figure;

function provider(api: ApiDescription, body: unknown) {
  const urls: string[] = [];
  const data = createHttpDataProvider(api, shop, {
    retry: false,
    authHeaders: () => ({ authorization: 'Bearer secret-token' }),
    fetch: async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { data, urls };
}

describe('who answers a figure', () => {
  it('is the prototype API for every figure, through its figures call, the token never in the address', async () => {
    const { data, urls } = provider({ ...apiOf(shop), figures: '/_figures' }, { value: 12 });
    expect(data.answersFigure?.(revenue)).toBe(true);
    expect(await data.figure?.({ screen: 'dashboard', figure: revenue })).toEqual({ value: 12 });
    expect(urls).toEqual(['/api/_figures/dashboard/revenue']);
  });

  it('is nobody on another API, unless point 7 names a GET call for the figure, which is then asked', async () => {
    const { data, urls } = provider(apiOf(shop), { groups: [{ key: 'paid', value: 3 }] });
    // Nothing is computed by downloading records: the figure is not available.
    expect(data.answersFigure?.(revenue)).toBe(false);
    const called = { ...revenue, call: 'listOrders' };
    expect(data.answersFigure?.(called)).toBe(true);
    expect(data.answersFigure?.({ ...revenue, call: 'createOrder' })).toBe(false);
    expect(await data.figure?.({ screen: 'dashboard', figure: called })).toEqual({
      groups: [{ key: 'paid', value: 3 }],
      more: 0,
    });
    expect(urls).toEqual(['/api/orders']);
  });

  it('refuses an answer that is not a figure, saying so', async () => {
    const { data } = provider({ ...apiOf(shop), figures: '/_figures' }, { items: [] });
    await expect(data.figure?.({ screen: 'dashboard', figure: revenue })).rejects.toThrow(
      /not a figure|other than a figure/,
    );
  });
});

describe('a figure answer', () => {
  it('is a value or groups', () => {
    expect(readFigureAnswer({ value: 12.5 })).toEqual({ value: 12.5 });
    expect(readFigureAnswer({ value: null })).toEqual({ value: null });
    expect(readFigureAnswer({ groups: [{ key: 'paid', value: 3 }], more: 2 })).toEqual({
      groups: [{ key: 'paid', value: 3 }],
      more: 2,
    });
  });

  it('is refused when it is neither', () => {
    for (const body of [null, [], 'text', 12, {}, { value: '12' }, { value: Infinity }, { groups: {} }]) {
      expect(readFigureAnswer(body), JSON.stringify(body)).toBeUndefined();
    }
  });

  it('skips groups that are not groups, clips long keys, and keeps at most 100', () => {
    const read = readFigureAnswer({
      groups: [
        { key: { html: '<img src=x onerror=alert(1)>' }, value: 1 },
        { key: 'x'.repeat(5000), value: 2 },
        { key: 'ok', value: 'three' },
        'not a group',
        { key: null, value: null },
        ...Array.from({ length: 200 }, (_, index) => ({ key: index, value: index })),
      ],
      more: -4,
    });
    expect(read && 'groups' in read).toBe(true);
    const groups = read && 'groups' in read ? read.groups : [];
    expect(groups[0]?.key).toMatch(/^x+…?$/);
    expect(String(groups[0]?.key).length).toBeLessThan(1000);
    expect(groups[1]).toEqual({ key: null, value: null });
    expect(groups.every((group) => typeof group.key !== 'object' || group.key === null)).toBe(true);
    expect(read && 'more' in read && read.more).toBe(105);
  });
});
