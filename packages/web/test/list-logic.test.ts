import type { Call, ListScreen, Model } from '@ninefold/model';
import { DEFAULT_PAGE_SIZE } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { entityCalls } from '../src/data/entity-calls';
import { listSearchParams } from '../src/data/list-request';
import { createI18n } from '../src/i18n/I18nProvider';
import { cellText } from '../src/list/cell-text';
import { countOf, countRequest } from '../src/list/count-request';
import { listCallForRoute, planList } from '../src/list/list-plan';
import {
  clearFilters,
  EMPTY_LIST_STATE,
  effectiveSort,
  filterParamName,
  nextCursor,
  parseListState,
  previousCursor,
  setFilter,
  setSort,
  toListParams,
  writeListState,
} from '../src/list/list-state';
import { pageRange } from '../src/list/page-range';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');

function listScreen(model: Model, name: string): ListScreen {
  const found = model.screens.shown ? model.screens.items.find((item) => item.name === name) : undefined;
  if (found?.kind !== 'list') throw new Error(`${name} is not a list screen`);
  return found;
}

function planFor(model: Model, name: string, change: (call: Call) => Call = (call) => call) {
  const changed: Model = model.calls.shown
    ? {
        ...model,
        calls: {
          ...model.calls,
          items: model.calls.items.map((call) => (call.purpose === 'list' ? change(call) : call)),
        },
      }
    : model;
  const screen = listScreen(changed, name);
  return planList(changed, screen, entityCalls(apiOf(changed), changed, screen.entity));
}

describe('planList', () => {
  it('takes the screen’s columns, and only the sorts and filters its list call accepts', () => {
    const plan = planFor(shop, 'customers');
    expect(plan.columns.map((field) => field.name)).toEqual([
      'name',
      'email',
      'country',
      'creditLimit',
      'active',
    ]);
    expect([...plan.sortable]).toEqual([
      ['name', 'asc'],
      ['creditLimit', 'desc'],
    ]);
    // The call also filters on name, but the screen does not offer it: nothing is invented.
    expect(plan.filters.map((filter) => [filter.field.name, filter.op])).toEqual([
      ['country', 'eq'],
      ['active', 'eq'],
    ]);
    expect(plan.linkColumn).toBe('name');
    expect(plan.pageSize).toBe(25);
    expect(plan.creatable).toBe(true);
  });

  it('links the display field, else the key, else the first column', () => {
    const withColumns = (display: string | undefined, columns: string[]): Model => {
      if (!shop.entities.shown || !shop.screens.shown) throw new Error('shop shows entities and screens');
      return {
        ...shop,
        entities: {
          ...shop.entities,
          items: shop.entities.items.map((entity) => {
            if (entity.name !== 'Customer') return entity;
            const { display: _display, ...rest } = entity;
            return display === undefined ? rest : { ...rest, display };
          }),
        },
        screens: {
          ...shop.screens,
          items: shop.screens.items.map((screen) =>
            screen.name === 'customers' && screen.kind === 'list' ? { ...screen, columns } : screen,
          ),
        },
      };
    };
    expect(planFor(withColumns('name', ['email', 'id', 'name']), 'customers').linkColumn).toBe('name');
    // An imported entity often has no display field, and a timestamp first: the key names the record.
    expect(planFor(withColumns(undefined, ['email', 'id', 'name']), 'customers').linkColumn).toBe('id');
    expect(planFor(withColumns(undefined, ['email', 'name']), 'customers').linkColumn).toBe('email');
  });

  it('drops a sort field the call does not accept, and defaults to the next one the screen names', () => {
    const plan = planFor(shop, 'orders', (call) =>
      call.entity === 'Order' && call.sort
        ? { ...call, sort: { ...call.sort, fields: ['total', 'number'] } }
        : call,
    );
    expect([...plan.sortable.keys()]).toEqual(['number', 'total']);
    expect(plan.defaultSort).toEqual({ field: 'number', direction: 'asc' });
  });

  it('drops a filter the call does not carry, and keeps the call’s operator', () => {
    const plan = planFor(shop, 'orders', (call) =>
      call.entity === 'Order'
        ? { ...call, filters: [{ field: 'placedOn', param: 'from', op: 'gte' as const }] }
        : call,
    );
    expect(plan.filters.map((filter) => [filter.field.name, filter.op])).toEqual([['placedOn', 'gte']]);
  });

  it('caps the page size at the call’s maxSize and uses the API’s default when the screen names none', () => {
    const capped = planFor(shop, 'orders', (call) => ({
      ...call,
      pagination: {
        style: 'page',
        pageParam: 'page',
        sizeParam: 'limit',
        maxSize: { kind: 'number', value: 10 },
      },
    }));
    expect(capped.pageSize).toBe(10);
    const model: Model = shop.screens.shown
      ? {
          ...shop,
          screens: {
            ...shop.screens,
            items: shop.screens.items.map((item) =>
              item.name === 'orders' ? { ...item, pageSize: undefined } : item,
            ),
          },
        }
      : shop;
    expect(planFor(model, 'orders').pageSize).toBe(DEFAULT_PAGE_SIZE);
    expect(
      planFor(shop, 'orders', (call) => ({ ...call, pagination: { style: 'none' } })).pageSize,
    ).toBeUndefined();
  });
});

describe('the list state in the address', () => {
  const plan = planFor(shop, 'orders');

  it('reads page, order and filters, and writes them back the same', () => {
    const search = new URLSearchParams(
      'status=paid&customer=3&placedOn=2024-02-01&q=ORD-00+rush&sort=-total&page=2',
    );
    const state = parseListState(search, plan);
    expect(state).toEqual({
      page: 2,
      cursors: [],
      sort: { field: 'total', direction: 'desc' },
      filters: { status: 'paid', customer: '3', placedOn: '2024-02-01' },
      search: 'ORD-00 rush',
    });
    expect(writeListState(state, plan).toString()).toBe(search.toString());
    expect(toListParams(plan, state)).toEqual({
      entity: 'Order',
      page: { style: 'page', page: 2, size: 25 },
      sort: [{ field: 'total', direction: 'desc' }],
      filters: [
        { field: 'status', op: 'eq', value: 'paid' },
        { field: 'customer', op: 'eq', value: '3' },
        { field: 'placedOn', op: 'eq', value: '2024-02-01' },
      ],
      search: 'ORD-00 rush',
    });
    // The call's own parameter carries it.
    expect(listSearchParams(shop, plan.call as Call, toListParams(plan, state)).get('q')).toBe('ORD-00 rush');
  });

  it('has no search where the list call names no search parameter, whatever the address says', () => {
    const plain = planFor(shop, 'orders', ({ search: _search, ...call }) => call);
    expect(plain.searchable).toBe(false);
    const state = parseListState(new URLSearchParams('q=rush'), plain);
    expect(state.search).toBe('');
    expect(toListParams(plain, state)).not.toHaveProperty('search');
  });

  it.each([
    ['page=0', {}],
    ['page=-1', {}],
    ['page=1.5', {}],
    ['page=99999999999', {}],
    ['sort=customer', {}],
    ['sort=-', {}],
    ['status=lost', {}],
    ['placedOn=2024-13-45', {}],
    ['placedOn=yesterday', {}],
    ['customer=', {}],
    ['cursor=abc', {}],
    ['unknown=1', {}],
  ])('ignores %s', (query) => {
    expect(parseListState(new URLSearchParams(query), plan)).toEqual(EMPTY_LIST_STATE);
  });

  it('goes back to the first page when the order or a filter changes', () => {
    const state = { ...EMPTY_LIST_STATE, page: 3 };
    expect(setSort(state, plan, { field: 'total', direction: 'asc' })).toEqual({
      ...EMPTY_LIST_STATE,
      sort: { field: 'total', direction: 'asc' },
    });
    expect(setSort(state, plan, { field: 'status', direction: 'asc' })).toBe(state);
    const filtered = setFilter(state, 'status', 'paid');
    expect(filtered).toEqual({ ...EMPTY_LIST_STATE, filters: { status: 'paid' } });
    expect(setFilter(filtered, 'status', '')).toEqual(EMPTY_LIST_STATE);
    expect(clearFilters({ ...filtered, page: 2 })).toEqual(EMPTY_LIST_STATE);
  });

  it('defaults to the screen’s first sort entry', () => {
    expect(effectiveSort(EMPTY_LIST_STATE, plan)).toEqual({ field: 'placedOn', direction: 'desc' });
  });

  it('keeps a stack of cursors for the cursor style', () => {
    const cursorPlan = planFor(shop, 'orders', (call) => ({
      ...call,
      pagination: { style: 'cursor', cursorParam: 'after', sizeParam: 'limit', nextField: 'next' },
    }));
    const state = parseListState(new URLSearchParams('cursor=a&cursor=b&page=4'), cursorPlan);
    expect(state.cursors).toEqual(['a', 'b']);
    expect(state.page).toBe(1);
    expect(toListParams(cursorPlan, state).page).toEqual({ style: 'cursor', cursor: 'b', size: 25 });
    expect(nextCursor(state, 'c').cursors).toEqual(['a', 'b', 'c']);
    expect(previousCursor(state).cursors).toEqual(['a']);
    expect(toListParams(cursorPlan, previousCursor(previousCursor(state))).page).toEqual({
      style: 'cursor',
      size: 25,
    });
  });

  it('asks an offset call for the page’s offset', () => {
    const offsetPlan = planFor(shop, 'orders', (call) => ({
      ...call,
      pagination: { style: 'offset', offsetParam: 'offset', limitParam: 'limit' },
    }));
    expect(toListParams(offsetPlan, { ...EMPTY_LIST_STATE, page: 3 }).page).toEqual({
      style: 'offset',
      offset: 50,
      limit: 25,
    });
  });

  it('carries several values for an `in` filter, and keeps filter names clear of paging and sorting', () => {
    const inPlan = planFor(shop, 'orders', (call) =>
      call.entity === 'Order'
        ? { ...call, filters: [{ field: 'status', param: 'status', op: 'in' as const }] }
        : call,
    );
    const state = parseListState(new URLSearchParams('status=paid&status=nope&status=shipped'), inPlan);
    expect(state.filters).toEqual({ status: ['paid', 'shipped'] });
    expect(writeListState(state, inPlan).toString()).toBe('status=paid&status=shipped');
    expect(filterParamName('page')).toBe('filter.page');
    expect(filterParamName('status')).toBe('status');
  });
});

describe('cellText', () => {
  const i18n = createI18n('en');
  const context = {
    model: shop,
    format: i18n.format,
    yes: 'Yes',
    no: 'No',
    items: (n: number) => `${n} items`,
  };

  it('formats each kind as plain text', () => {
    expect(cellText({ kind: 'money', currency: 'EUR' }, 1234.5, context)).toBe('€1,234.50');
    expect(cellText({ kind: 'integer' }, 12000, context)).toBe('12,000');
    expect(cellText({ kind: 'boolean' }, true, context)).toBe('Yes');
    expect(cellText({ kind: 'boolean' }, false, context)).toBe('No');
    expect(cellText({ kind: 'date' }, '2024-02-29', context)).toBe('Feb 29, 2024');
    expect(cellText({ kind: 'enum', values: [{ value: 'paid', label: 'Paid' }] }, 'paid', context)).toBe(
      'Paid',
    );
    expect(cellText({ kind: 'enum', values: [{ value: 'paid' }] }, 'gone', context)).toBe('gone');
    expect(cellText({ kind: 'text' }, null, context)).toBe('');
    expect(cellText({ kind: 'markdown' }, '# Title\n\n*bold*', context)).toBe('# Title *bold*');
    expect(cellText({ kind: 'list', of: { kind: 'text' } }, ['a', 'b'], context)).toBe('a, b');
    expect(cellText({ kind: 'list', of: { kind: 'object', entity: 'OrderLine' } }, [{}, {}], context)).toBe(
      '2 items',
    );
    expect(cellText({ kind: 'file' }, { name: 'po-17.pdf', url: '/files/1' }, context)).toBe('po-17.pdf');
  });

  it('shows a reference by its id, or by its display field when the API embeds the record', () => {
    expect(cellText({ kind: 'reference', entity: 'Customer' }, 7, context)).toBe('7');
    expect(cellText({ kind: 'reference', entity: 'Customer' }, { id: 7, name: 'Anna' }, context)).toBe(
      'Anna',
    );
  });

  it('reads an embedded object by its parts', () => {
    expect(
      cellText(
        { kind: 'object', entity: 'Address' },
        { street: '1 Quay', city: 'Brest', country: 'FR' },
        context,
      ),
    ).toBe('1 Quay, Brest, FR');
  });

  it('keeps markup from the API as text', () => {
    expect(cellText({ kind: 'text' }, '<img src=x onerror=alert(1)>', context)).toBe(
      '<img src=x onerror=alert(1)>',
    );
  });
});

describe('countRequest', () => {
  it('asks for the smallest page of each style', () => {
    expect(countRequest({ style: 'page', pageParam: 'p', sizeParam: 's' })).toEqual({
      style: 'page',
      page: 1,
      size: 1,
    });
    expect(countRequest({ style: 'offset', offsetParam: 'o', limitParam: 'l' })).toEqual({
      style: 'offset',
      offset: 0,
      limit: 1,
    });
    expect(countRequest({ style: 'cursor', cursorParam: 'c', sizeParam: 's', nextField: 'n' })).toEqual({
      style: 'cursor',
      size: 1,
    });
    expect(countRequest({ style: 'link-header' })).toEqual({ style: 'link-header', page: 1, size: 1 });
    expect(countRequest(undefined)).toEqual({ style: 'none' });
  });

  it('counts the records only when the call does not page', () => {
    expect(countOf({ style: 'none' }, { items: [1, 2, 3] })).toBe(3);
    expect(countOf({ style: 'link-header' }, { items: [1] })).toBeUndefined();
    expect(countOf({ style: 'link-header' }, { items: [1], total: 40 })).toBe(40);
  });
});

describe('the list call of a screen', () => {
  it('is the call whose path is the screen route, so a feed and a collection of one entity stay apart', () => {
    const feed: Call = {
      name: 'feed',
      method: 'GET',
      path: '/articles/feed',
      purpose: 'list',
      parameters: [],
      filters: [],
    };
    const all: Call = {
      name: 'all',
      method: 'GET',
      path: '/articles',
      purpose: 'list',
      parameters: [],
      filters: [],
    };
    const calls = { list: feed, lists: [feed, all], transitions: {}, all: [feed, all] };
    expect(listCallForRoute(calls, '/articles')?.name).toBe('all');
    expect(listCallForRoute(calls, '/articles/feed')?.name).toBe('feed');
    expect(listCallForRoute(calls, '/stories')?.name).toBe('feed');
  });
});

describe('pageRange', () => {
  const shown = (total: number, current: number) =>
    pageRange(total, current)
      .map((item) => (item.kind === 'page' ? String(item.page) : '…'))
      .join(' ');

  it('shows every page up to seven, and seven entries past that wherever the current page is', () => {
    expect(shown(1, 1)).toBe('1');
    expect(shown(7, 4)).toBe('1 2 3 4 5 6 7');
    expect(shown(10, 1)).toBe('1 2 3 4 5 … 10');
    expect(shown(10, 4)).toBe('1 2 3 4 5 … 10');
    expect(shown(10, 5)).toBe('1 … 4 5 6 … 10');
    expect(shown(10, 7)).toBe('1 … 6 7 8 9 10');
    expect(shown(10, 10)).toBe('1 … 6 7 8 9 10');
    for (let current = 1; current <= 40; current++) expect(pageRange(40, current)).toHaveLength(7);
  });

  it('keeps a page out of range inside the control', () => {
    expect(shown(10, 99)).toBe('1 … 6 7 8 9 10');
    expect(shown(10, -3)).toBe('1 2 3 4 5 … 10');
  });
});
