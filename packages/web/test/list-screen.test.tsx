import { findEntity, loadSpec, type Model } from '@ninefold/model';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { type ApiRecord, type ListParams, NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const STATUSES = ['draft', 'placed', 'paid', 'shipped', 'delivered', 'cancelled'];

/** 60 orders: SO-0001 placed on 2024-01-01 up to SO-0060 placed on 2024-02-29, totals rising. */
function orders(count = 60): ApiRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    const placed = new Date(Date.UTC(2024, 0, 1 + index)).toISOString().slice(0, 10);
    return {
      id: n,
      number: `SO-${String(n).padStart(4, '0')}`,
      customer: (n % 4) + 1,
      placedOn: placed,
      total: n * 10.5,
      status: STATUSES[n % STATUSES.length] ?? 'draft',
    };
  });
}

// happy-dom lays nothing out; the list's scroll box is given a viewport's height so that the virtualizer
// has rows to show, as a browser would.
const VIEWPORT = 600;
let restoreHeight: () => void = () => {};
beforeAll(() => {
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('nf-list-scroll') ? VIEWPORT : 0;
    },
  });
  restoreHeight = () => {
    if (own) Object.defineProperty(HTMLElement.prototype, 'clientHeight', own);
    else delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  };
});
afterAll(() => restoreHeight());

interface Options {
  model?: Model;
  seed?: Record<string, ApiRecord[]>;
  /** Render in the browser's own history (for address tests) instead of a memory router. */
  browser?: boolean;
  queryClient?: QueryClient;
}

function renderList(
  path: string,
  { model = shop, seed = { Order: orders() }, browser, queryClient }: Options = {},
) {
  const api = apiOf(model);
  const data = createMemoryDataProvider(model, api, seed);
  if (browser) {
    // The client finds the path it is served under from <base href>, as the built index.html has it.
    if (!document.querySelector('base'))
      document.head.append(Object.assign(document.createElement('base'), { href: '/' }));
    window.history.replaceState(null, '', path);
  }
  render(
    <App
      spec={{ model, api, data }}
      {...(browser ? {} : { initialPath: path })}
      locale="en"
      {...(queryClient ? { queryClient } : {})}
    />,
  );
  return data;
}

/** The list calls of the screen's own records (not the reads of the names its references show). */
function listCalls(data: { log: { method: string; params: unknown }[] }): ListParams[] {
  return data.log
    .filter((call) => call.method === 'list')
    .map((call) => call.params as ListParams)
    .filter((params) => !params.filters.some((filter) => filter.op === 'in' && filter.field === 'id'));
}

function lastList(data: { log: { method: string; params: unknown }[] }): ListParams {
  const calls = listCalls(data);
  const last = calls.at(-1);
  if (!last) throw new Error('no list call was made');
  return last;
}

async function table(name = 'Orders') {
  return screen.findByRole('table', { name });
}

function bodyRows(tableElement: HTMLElement): HTMLElement[] {
  const [, body] = within(tableElement).getAllByRole('rowgroup');
  if (!body) throw new Error('no table body');
  return within(body).queryAllByRole('row');
}

function cellTexts(row: HTMLElement): string[] {
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

describe('a list screen', () => {
  it('names referenced records by their display field, reading each distinct one once', async () => {
    const customers = [1, 2, 3, 4].map((id) => ({ id, name: `Customer number ${id}` }));
    // Without a list call that filters customers by id, each is read with the get call.
    const model = withoutIdFilters(shop);
    const data = renderList('/orders', { model, seed: { Order: orders(8), Customer: customers } });
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByText('Customer number 2').length).toBe(2));
    const link = within(table).getAllByRole('link', { name: 'Customer number 2' })[0];
    expect(link?.getAttribute('href')).toBe('/customers/2');
    const gets = data.log.filter((call) => call.method === 'get');
    expect(gets.map((call) => (call.params as { id: string }).id).sort()).toEqual(['1', '2', '3', '4']);
    expect(data.log.filter((call) => call.method === 'list')).toHaveLength(1);
  });

  it('opens a record from its row’s link inside the client, and leaves a click with a modifier to the browser', async () => {
    renderList('/orders', { seed: { Order: orders(3), Customer: [] } });
    const link = within(await table()).getByRole('link', { name: 'SO-0002' });
    expect(link.getAttribute('href')).toBe('/orders/2');
    // A ctrl-click asks for a new tab: the table's listener must not take it.
    const newTab = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    link.dispatchEvent(newTab);
    expect(newTab.defaultPrevented).toBe(false);
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: /SO-0002/ })).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Orders' })).toBeNull();
  });

  it('reads the names of a page’s references with one list call where point 7 filters ids with `in`', async () => {
    const customers = [1, 2, 3, 4].map((id) => ({ id, name: `Customer number ${id}` }));
    const data = renderList('/orders', { seed: { Order: orders(8), Customer: customers } });
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByText('Customer number 4').length).toBe(2));
    expect(data.log.filter((call) => call.method === 'get')).toEqual([]);
    const reads = data.log
      .filter((call) => call.method === 'list' && (call.params as ListParams).entity === 'Customer')
      .map((call) => call.params as ListParams);
    expect(reads).toHaveLength(1);
    const ids = reads[0]?.filters.find((filter) => filter.field === 'id' && filter.op === 'in')?.value;
    expect([...(ids ?? [])].sort()).toEqual(['1', '2', '3', '4']);
  });

  it('shows the screen’s columns with field labels, values formatted by kind, in the default order', async () => {
    const data = renderList('/orders');
    const orderTable = await table();
    expect(
      within(orderTable)
        .getAllByRole('columnheader')
        .map((header) => header.textContent?.replace(/[↑↓↕]/g, '')),
    ).toEqual(['Order number', 'Customer', 'Placed on', 'Total', 'Status']);
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(25));
    // The default order is the screen's first sort entry: newest first.
    const first = bodyRows(orderTable)[0];
    if (!first) throw new Error('no first row');
    expect(cellTexts(first)).toEqual(['SO-0060', '1', 'Feb 29, 2024', '€630.00', 'Draft']);
    expect(within(first).getByRole('link', { name: 'SO-0060' }).getAttribute('href')).toBe('/orders/60');
    // Only the customer's id is in a list answer; it links to that customer.
    expect(within(first).getByRole('link', { name: '1' }).getAttribute('href')).toBe('/customers/1');
    expect(
      within(orderTable)
        .getByRole('columnheader', { name: /Placed on/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
    expect(listCalls(data)).toEqual([
      expect.objectContaining({
        entity: 'Order',
        page: { style: 'page', page: 1, size: 25 },
        sort: [{ field: 'placedOn', direction: 'desc' }],
        filters: [],
      }),
    ]);
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'New order' }).getAttribute('href'),
    ).toBe('/orders/new');
    expect(screen.getByText('Showing 1–25 of 60')).toBeTruthy();
    expect(document.title).toBe('Orders · Harbor Supply');
  });

  it('offers sorting only on the screen’s sort fields the call accepts, and toggles the direction', async () => {
    const data = renderList('/orders');
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable).length).toBeGreaterThan(0));
    // Customer and status are columns but not sort fields: their headers are not buttons.
    expect(within(orderTable).queryByRole('button', { name: /Customer/ })).toBeNull();
    expect(within(orderTable).queryByRole('button', { name: /Status/ })).toBeNull();

    await userEvent.click(within(orderTable).getByRole('button', { name: /Total/ }));
    await waitFor(() => expect(lastList(data).sort).toEqual([{ field: 'total', direction: 'asc' }]));
    const total = within(orderTable).getByRole('columnheader', { name: /Total/ });
    await waitFor(() => expect(total.getAttribute('aria-sort')).toBe('ascending'));
    expect(
      within(orderTable)
        .getByRole('columnheader', { name: /Placed on/ })
        .getAttribute('aria-sort'),
    ).toBeNull();
    await waitFor(() => expect(cellTexts(bodyRows(orderTable)[0] as HTMLElement)[0]).toBe('SO-0001'));

    await userEvent.click(within(orderTable).getByRole('button', { name: /Total/ }));
    await waitFor(() => expect(lastList(data).sort).toEqual([{ field: 'total', direction: 'desc' }]));
    await waitFor(() => expect(total.getAttribute('aria-sort')).toBe('descending'));
    await waitFor(() => expect(cellTexts(bodyRows(orderTable)[0] as HTMLElement)[0]).toBe('SO-0060'));
  });

  it('pages through the API and keeps the page, order and filters in the address', async () => {
    const data = renderList('/orders', { browser: true });
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(25));
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    await userEvent.click(within(pages).getByRole('button', { name: 'Page 2 of 3' }));
    await waitFor(() => expect(lastList(data).page).toEqual({ style: 'page', page: 2, size: 25 }));
    expect(window.location.search).toBe('?page=2');
    await waitFor(() => expect(screen.getByText('Showing 26–50 of 60')).toBeTruthy());
    expect(cellTexts(bodyRows(orderTable)[0] as HTMLElement)[0]).toBe('SO-0035');

    await userEvent.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getByText('Showing 51–60 of 60')).toBeTruthy());
    expect(window.location.search).toBe('?page=3');
    expect(bodyRows(orderTable)).toHaveLength(10);

    // Back goes to the previous page of the list, as a browser's back button would.
    window.history.back();
    await waitFor(() => expect(screen.getByText('Showing 26–50 of 60')).toBeTruthy());
    expect(window.location.search).toBe('?page=2');
  });

  it('renders the state a deep link names: ?page=2&sort=-total', async () => {
    const data = renderList('/orders?page=2&sort=-total');
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(25));
    expect(listCalls(data)[0]).toEqual(
      expect.objectContaining({
        page: { style: 'page', page: 2, size: 25 },
        sort: [{ field: 'total', direction: 'desc' }],
      }),
    );
    expect(within(orderTable).getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    // Totals descending: page 2 starts at the 26th largest, SO-0035.
    expect(cellTexts(bodyRows(orderTable)[0] as HTMLElement)[0]).toBe('SO-0035');
    expect(screen.getByRole('button', { name: 'Page 2 of 3' }).getAttribute('aria-current')).toBe('page');
  });

  it('ignores what it does not understand in the address instead of failing', async () => {
    const data = renderList(
      '/orders?page=-4&sort=-customer&status=lost&placedOn=yesterday&colour=red&page=x',
    );
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(25));
    expect(listCalls(data)[0]).toEqual(
      expect.objectContaining({
        page: { style: 'page', page: 1, size: 25 },
        sort: [{ field: 'placedOn', direction: 'desc' }],
        filters: [],
      }),
    );
  });

  it('filters through the API with a widget per kind, and writes the filter into the address', async () => {
    const customers = [1, 2, 3, 4].map((id) => ({ id, name: `Customer number ${id}` }));
    const data = renderList('/orders?page=2', {
      browser: true,
      seed: { Order: orders(), Customer: customers },
    });
    // The orders' list calls, not those that look customers up by name.
    const orderLists = () => listCalls(data).filter((params) => params.entity === 'Order');
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(25));
    const filters = screen.getByRole('search', { name: 'Filters' });

    // An enum filter is a select of the values' labels.
    const status = within(filters).getByRole('combobox', { name: 'Status' });
    expect(
      within(status)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Any', 'Draft', 'Placed', 'Paid', 'Shipped', 'Delivered', 'Cancelled']);
    await userEvent.selectOptions(status, 'paid');
    await waitFor(() =>
      expect(lastList(data)).toEqual(
        expect.objectContaining({
          filters: [{ field: 'status', op: 'eq', value: 'paid' }],
          // A new filter starts again from the first page.
          page: { style: 'page', page: 1, size: 25 },
        }),
      ),
    );
    expect(window.location.search).toBe('?status=paid');
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(10));
    for (const row of bodyRows(orderTable)) expect(cellTexts(row)[4]).toBe('Paid');

    // A date filter is Mantine's date input, typed in the language's order once it has loaded (the
    // browser's stands in until then); a reference filter finds the record by its name.
    await waitFor(() =>
      expect(within(filters).getByLabelText('Placed on').getAttribute('placeholder')).toMatch(
        /^(MM\/DD|DD\/MM)\/YYYY$/,
      ),
    );
    const customer = within(filters).getByLabelText('Customer');
    const before = orderLists().length;
    await userEvent.type(customer, 'Customer number 3');
    await waitFor(() =>
      expect(orderLists().at(-1)?.filters).toEqual([
        { field: 'status', op: 'eq', value: 'paid' },
        { field: 'customer', op: 'eq', value: '3' },
      ]),
    );
    // The customers were looked up by the name typed, through their list call's filter on it.
    expect(
      listCalls(data).some((params) => params.entity === 'Customer' && params.filters[0]?.field === 'name'),
    ).toBe(true);
    // The orders are asked for once the name is known, not once per key.
    expect(orderLists().length).toBe(before + 1);
    expect(window.location.search).toBe('?status=paid&customer=3');
    // Paid orders are SO-0002, SO-0008, …; those of customer 3 are every other one.
    await waitFor(() =>
      expect(bodyRows(orderTable).map((row) => cellTexts(row)[0])).toEqual([
        'SO-0050',
        'SO-0038',
        'SO-0026',
        'SO-0014',
        'SO-0002',
      ]),
    );
    for (const row of bodyRows(orderTable)) {
      expect(cellTexts(row)[1]).toBe('Customer number 3');
      expect(cellTexts(row)[4]).toBe('Paid');
    }
  });

  it('filters by a reference id where the records referred to have no name to find them by', async () => {
    const model = structuredClone(shop);
    const customerEntity = findEntity(model, 'Customer');
    if (!customerEntity) throw new Error('the shop has customers');
    delete customerEntity.display;
    const data = renderList('/orders', { model });
    await table();
    const customer = within(screen.getByRole('search', { name: 'Filters' })).getByLabelText('Customer');
    expect(customer.getAttribute('list')).toBeNull();
    expect(screen.getByText('The id of a customer: its name cannot be looked up here.')).toBeTruthy();
    await userEvent.type(customer, '3');
    await waitFor(() =>
      expect(lastList(data).filters).toEqual([{ field: 'customer', op: 'eq', value: '3' }]),
    );
  });

  it('says when nothing matches the filters, and clears them', async () => {
    const data = renderList('/orders?status=paid&customer=99');
    expect(await screen.findByText('No orders match these filters')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await userEvent.click(clear.at(-1) as HTMLElement);
    await table();
    expect(lastList(data).filters).toEqual([]);
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Customer') as HTMLInputElement).value).toBe('');
  });

  it('says when there are no records yet', async () => {
    renderList('/orders', { seed: {} });
    expect(await screen.findByText('No orders yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'New order' })).toBeTruthy();
  });

  it('shows a loading state with words, then the rows', async () => {
    renderList('/orders');
    expect(await screen.findByText('Loading Orders…')).toBeTruthy();
    await table();
    expect(screen.queryByText('Loading Orders…')).toBeNull();
  });

  it('shows the API’s message when the list fails, and tries again', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const model = shop;
    const api = apiOf(model);
    const data = createMemoryDataProvider(model, api, { Order: orders() });
    data.failNext('list', new NetworkError('fetch failed: ECONNREFUSED 127.0.0.1:8080'));
    render(<App spec={{ model, api, data }} initialPath="/orders" locale="en" queryClient={queryClient} />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The list could not be loaded')).toBeTruthy();
    expect(
      within(alert).getByText('The server could not be reached. Check the connection and try again.'),
    ).toBeTruthy();
    expect(alert.textContent).not.toContain('ECONNREFUSED');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await table();
    expect(listCalls(data)).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('virtualizes a page of 10,000 records: far fewer rows are in the document', async () => {
    const model = withPagination(shop, { style: 'none' });
    const data = renderList('/orders', { model, seed: { Order: orders(10_000) } });
    const orderTable = await table();
    // The virtualizer is loaded for a long answer; its body is as tall as every row.
    await waitFor(() => expect(orderTable.querySelector('tbody')?.style.height).toBe(`${44 * 10_000}px`));
    await waitFor(() => expect(bodyRows(orderTable).length).toBeGreaterThan(0));
    expect(listCalls(data)[0]?.page).toEqual({ style: 'none' });
    const rendered = bodyRows(orderTable).length;
    expect(rendered).toBeLessThan(100);
    // Every row is still counted for assistive technology.
    expect(orderTable.getAttribute('aria-rowcount')).toBe('10001');
    expect(bodyRows(orderTable)[0]?.getAttribute('aria-rowindex')).toBe('2');
    expect(screen.getByText('10,000 records')).toBeTruthy();

    // Scrolling far down brings those rows in, and still only a window of them.
    const region = screen.getByRole('region', { name: 'Orders' });
    region.scrollTop = 44 * 5_000;
    region.dispatchEvent(new Event('scroll'));
    await waitFor(() =>
      expect(bodyRows(orderTable).some((row) => row.getAttribute('aria-rowindex') === '5002')).toBe(true),
    );
    expect(bodyRows(orderTable).length).toBeLessThan(100);
  });
});

describe('a list screen with other pagination styles', () => {
  it('pages with cursors: next hands back the answer’s cursor, previous returns to the one before', async () => {
    const model = withPagination(shop, {
      style: 'cursor',
      cursorParam: 'cursor',
      sizeParam: 'limit',
      nextField: 'next',
    });
    const data = renderList('/orders', { model, browser: true });
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(25));
    expect(lastList(data).page).toEqual({ style: 'cursor', size: 25 });
    expect(screen.getByRole('button', { name: 'Previous page' }).hasAttribute('disabled')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList(data).page).toEqual({ style: 'cursor', cursor: '25', size: 25 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList(data).page).toEqual({ style: 'cursor', cursor: '50', size: 25 }));
    expect(window.location.search).toBe('?cursor=25&cursor=50');
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(10));
    expect(screen.getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(25));
    expect(window.location.search).toBe('?cursor=25');
    expect(cellTexts(bodyRows(orderTable)[0] as HTMLElement)[0]).toBe('SO-0035');
  });

  it('caps the page size at the call’s maxSize', async () => {
    const model = withPagination(shop, {
      style: 'offset',
      offsetParam: 'offset',
      limitParam: 'limit',
      maxSize: { kind: 'number', value: 10 },
    });
    const data = renderList('/orders?page=3', { model });
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable)).toHaveLength(10));
    expect(lastList(data).page).toEqual({ style: 'offset', offset: 20, limit: 10 });
    expect(screen.getByText('Showing 21–30 of 60')).toBeTruthy();
  });
});

describe('a list screen’s links and actions', () => {
  it('offers no "New" link when the specification names no create call', async () => {
    const model = withoutCall(shop, 'createOrder');
    renderList('/orders', { model });
    await table();
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'New order' })).toBeNull();
  });

  it('reaches the record by keyboard through its link', async () => {
    renderList('/orders');
    const orderTable = await table();
    await waitFor(() => expect(bodyRows(orderTable).length).toBeGreaterThan(0));
    const link = within(orderTable).getByRole('link', { name: 'SO-0060' });
    link.focus();
    expect(document.activeElement).toBe(link);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Orders' })).toBeNull());
    expect(screen.queryByRole('heading', { level: 1, name: 'Orders' })).toBeNull();
  });

  // As imported from OpenAI's document: the item path's parameter is not named like the key.
  const JOBS = `title: Jobs
entities:
  Job:
    key: id
    fields:
      id: { kind: text }
      model: { kind: text }
  Step:
    key: id
    fields:
      id: { kind: text }
      job: { kind: text }
      message: { kind: text }
screens:
  jobs: { kind: list, route: /jobs, entity: Job, columns: [id, model] }
  job: { kind: detail, route: '/jobs/:job_id', entity: Job }
  steps: { kind: list, route: '/jobs/:job/steps', entity: Step, columns: [id, message] }
  step: { kind: detail, route: '/jobs/:job/steps/:stepId', entity: Step }
calls:
  operations:
    listJobs: { method: GET, path: /jobs, purpose: list, entity: Job, response: { shape: array } }
    getJob: { method: GET, path: '/jobs/{job_id}', purpose: get, entity: Job, response: { shape: one } }
    listSteps:
      method: GET
      path: '/jobs/{job}/steps'
      purpose: list
      entity: Step
      response: { shape: array }
    getStep:
      method: GET
      path: '/jobs/{job}/steps/{stepId}'
      purpose: get
      entity: Step
      response: { shape: one }
`;

  it('links a record through its detail route’s own parameter, and keeps the parents’ ones', async () => {
    const loaded = loadSpec(JOBS, { file: 'jobs.yaml' });
    if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
    const model = loaded.model;
    renderList('/jobs', { model, seed: { Job: [{ id: 'ft a/1', model: 'curie' }] } });
    const jobs = await screen.findByRole('table');
    const job = await within(jobs).findByRole('link', { name: 'ft a/1' });
    expect(job.getAttribute('href')).toBe('/jobs/ft%20a%2F1');
    cleanup();

    // Under a parent, the parent's parameter comes from the address and the key fills the last one.
    renderList('/jobs/ft%20a/steps', {
      model,
      seed: { Step: [{ id: 's1', job: 'ft a', message: 'queued' }] },
    });
    const steps = await screen.findByRole('table');
    const step = await within(steps).findByRole('link', { name: 's1' });
    expect(step.getAttribute('href')).toBe('/jobs/ft%20a/steps/s1');
  });

  it('links a nested list to the record it belongs to, and that record to its nested lists', async () => {
    const loaded = loadSpec(JOBS, { file: 'jobs.yaml' });
    if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
    const model = loaded.model;
    // The parent's route names its parameter job_id, the nested list's job: they match by position.
    renderList('/jobs/ft%20a/steps', { model, seed: { Job: [{ id: 'ft a', model: 'curie' }], Step: [] } });
    const parent = await screen.findByRole('link', { name: '← Job ft a' });
    expect(parent.getAttribute('href')).toBe('/jobs/ft%20a');
    await userEvent.click(parent);
    const related = await screen.findByRole('navigation', { name: 'Related' });
    const steps = within(related).getByRole('link', { name: 'Step' });
    expect(steps.getAttribute('href')).toBe('/jobs/ft%20a/steps');
    // A list of all jobs belongs to no record.
    cleanup();
    renderList('/jobs', { model, seed: { Job: [{ id: 'ft a', model: 'curie' }] } });
    await screen.findByRole('table');
    expect(screen.queryByRole('link', { name: /^← / })).toBeNull();
  });
});

function withPagination(
  model: Model,
  pagination: NonNullable<import('@ninefold/model').Call['pagination']>,
): Model {
  if (!model.calls.shown) throw new Error('the model shows no calls');
  return {
    ...model,
    calls: {
      ...model.calls,
      items: model.calls.items.map((call) => (call.name === 'listOrders' ? { ...call, pagination } : call)),
    },
  };
}

/** The model with no list call filtering by a key with `in`, so that references are read one by one. */
function withoutIdFilters(model: Model): Model {
  if (!model.calls.shown) throw new Error('the model shows no calls');
  return {
    ...model,
    calls: {
      ...model.calls,
      items: model.calls.items.map((call) => ({
        ...call,
        filters: call.filters.filter((filter) => filter.op !== 'in' || filter.field !== 'id'),
      })),
    },
  };
}

function withoutCall(model: Model, name: string): Model {
  if (!model.calls.shown) throw new Error('the model shows no calls');
  return {
    ...model,
    calls: { ...model.calls, items: model.calls.items.filter((call) => call.name !== name) },
  };
}
