// `useNinefold().list`: an extension asks for a page of records in the specification's words, and the
// client asks the entity's list call in its own paging style, as docs/extending.md says.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type ApiDescription,
  type Call,
  describeApi,
  loadSpec,
  type Model,
  type Pagination,
} from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import type { DataProvider, ListParams } from '../src/data/data-provider';
import { listRecords } from '../src/extension/list-records';

const FILE = resolve(import.meta.dirname, '../../../test/fixtures/extension/tool-library.yaml');
const model = loadSpec(readFileSync(FILE, 'utf8'), { file: 'tool-library.yaml' }).model as Model;

/** The fixture's calls, with its list of loans paged in `style`. */
function api(pagination: Pagination | undefined): ApiDescription {
  const described = describeApi(model);
  return {
    ...described,
    calls: described.calls.map((call): Call => {
      if (call.name !== 'listLoans') return call;
      const { pagination: _, ...rest } = call;
      return pagination ? { ...rest, pagination } : rest;
    }),
  };
}

/** A data provider that keeps what it was asked. */
function recording(): { data: DataProvider; asked: ListParams[] } {
  const asked: ListParams[] = [];
  const data = {
    list: async (params: ListParams) => {
      asked.push(params);
      return { items: [] };
    },
  } as unknown as DataProvider;
  return { data, asked };
}

describe('an extension’s list of records', () => {
  it('asks the entity’s list call with its filters and sort, values as given', async () => {
    const { data, asked } = recording();
    await listRecords(model, api(undefined), data, 'Loan', {
      filters: [
        { field: 'status', value: 'out' },
        { field: 'borrower', value: ['ada', 'grace'] },
        { field: 'borrower', op: 'contains', value: 'gr' },
      ],
      sort: [{ field: 'borrower' }, { field: 'id', direction: 'desc' }],
      search: 'drill',
    });
    expect(asked).toEqual([
      {
        entity: 'Loan',
        call: 'listLoans',
        page: { style: 'none' },
        sort: [
          { field: 'borrower', direction: 'asc' },
          { field: 'id', direction: 'desc' },
        ],
        filters: [
          { field: 'status', op: 'eq', value: 'out' },
          { field: 'borrower', op: 'in', value: ['ada', 'grace'] },
          { field: 'borrower', op: 'contains', value: 'gr' },
        ],
        search: 'drill',
      },
    ]);
  });

  it.each([
    [
      { style: 'page', pageParam: 'page', sizeParam: 'limit' },
      { style: 'page', page: 3, size: 10 },
    ],
    [
      { style: 'offset', offsetParam: 'offset', limitParam: 'limit' },
      { style: 'offset', offset: 20, limit: 10 },
    ],
    [
      { style: 'link-header', sizeParam: 'per_page' },
      { style: 'link-header', page: 3, size: 10 },
    ],
    [
      { style: 'cursor', cursorParam: 'after', sizeParam: 'first', nextField: 'next' },
      { style: 'cursor', size: 10 },
    ],
  ] as const)('asks page 3 of 10 in the call’s own style: %o', async (pagination, page) => {
    const { data, asked } = recording();
    await listRecords(model, api(pagination), data, 'Loan', { page: 3, size: 10 });
    expect(asked[0]?.page).toEqual(page);
  });

  it('asks the list’s own page size when none is given', async () => {
    const { data, asked } = recording();
    await listRecords(model, api({ style: 'page', pageParam: 'page', sizeParam: 'limit' }), data, 'Loan', {});
    expect(asked[0]?.page).toEqual({ style: 'page', page: 1, size: 25 });
  });
});
