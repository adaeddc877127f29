// A phone's first list, as main.tsx starts it: the screen's code and its `prefetch` (the first answer, and
// on a phone the cards' code) before the first render. That render must draw the cards. When the cards
// were a `lazy` component, it drew a skeleton, and React held that skeleton for its 300 ms of fallback
// throttle even when the code was already here (a phone's first list: 1.1 s against a desk's 0.9 s).
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App, createQueryClient } from '../src/app/App';
import type { ApiRecord } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { PHONE_QUERY } from '../src/list/phone-list';
import { loadScreen } from '../src/screens/registry';
import { apiOf, loadExample } from './support/load-example';
import { mediaQueryList } from './support/media-query';

const shop = loadExample('shop.yaml');

function orders(count: number): ApiRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    number: `SO-${String(index + 1).padStart(4, '0')}`,
    customer: 1,
    placedOn: '2024-01-01',
    total: 10,
    status: 'placed',
  }));
}

/** The browser's media queries, with a phone's width: the test DOM answers none of them. */
let restore: () => void = () => {};
beforeEach(() => {
  const original = window.matchMedia;
  window.matchMedia = (query: string) => mediaQueryList(query, query === PHONE_QUERY);
  restore = () => {
    window.matchMedia = original;
  };
});
afterEach(() => {
  cleanup();
  restore();
});

describe("a phone's first list", () => {
  it('draws the cards in its first render, with no skeleton before them', async () => {
    const screen = shop.screens.shown
      ? shop.screens.items.find((item) => item.kind === 'list' && item.entity === 'Order')
      : undefined;
    if (screen?.kind !== 'list') throw new Error('the shop has no list of orders');
    const api = apiOf(shop);
    const data = createMemoryDataProvider(shop, api, { Order: orders(5) });
    const queryClient = createQueryClient();
    const module = await loadScreen('list');
    await module.prefetch?.({ model: shop, screen, data, queryClient, params: {}, search: '' });

    // No waiting after the render: what the first render drew is what is asserted.
    const { container } = render(
      <App
        spec={{ model: shop, api, data }}
        initialPath={screen.route}
        locale="en"
        queryClient={queryClient}
      />,
    );
    const cards = [...container.querySelectorAll('li.nf-card')].map((card) => card.textContent ?? '');
    expect(cards).toHaveLength(5);
    expect(cards[0]).toContain('SO-0001');
    expect(container.querySelector('.mantine-Skeleton-root')).toBeNull();
  });
});
