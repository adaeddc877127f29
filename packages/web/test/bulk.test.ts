// Doing one thing to many records of a list (issue 20): each record decided by the same rules as its own
// screen before anything is sent, the API's refusals reported with their reasons, and a retry after a
// lost answer made under the same idempotency keys, so nothing changes twice.

import type { ApiDescription } from '@ninefold/model';
import { type Entity, findEntity, type Principal, recordName } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { type ApiRecord, type DataProvider, NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { createI18n } from '../src/i18n/I18nProvider';
import { actionName, type BulkAction, bulkActions, refusal } from '../src/list/bulk-plan';
import { type BulkItem, runBulk } from '../src/list/bulk-run';
import { collectAll } from '../src/list/collect-all';
import type { SessionValue } from '../src/session/SessionContext';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api: ApiDescription = apiOf(model);
const i18n = createI18n('en');
const found = findEntity(model, 'Order');
if (!found) throw new Error('the shop has orders');
const order: Entity = found;

function signedIn(role: string, id: string): SessionValue {
  const principal: Principal = { role, user: { id, email: `${role}@example.com`, role } };
  return { state: { status: 'signed-in', user: { id, role, attributes: {} } }, principal };
}
const owner = signedIn('owner', 'u9');
const clerk = signedIn('clerk', 'u1');

const line = { product: 1, quantity: 1, unitPrice: 10 };
const seed = () => ({
  Product: [{ sku: 'RG-1', name: 'Rope', category: 'rigging', price: 10, stock: 50 }],
  Customer: [{ name: 'Anna Berg', email: 'anna@example.com', active: true }],
  Order: [
    { number: 'SO-1', customer: 1, status: 'placed', lines: [line], ownerId: 'u1' },
    { number: 'SO-2', customer: 1, status: 'shipped', lines: [line], ownerId: 'u1' },
    { number: 'SO-3', customer: 1, status: 'draft', lines: [line], ownerId: 'u1' },
    { number: 'SO-4', customer: 1, status: 'draft', lines: [line], ownerId: 'u2' },
  ],
});

function itemsOf(records: ApiRecord[]): BulkItem[] {
  return records.map((record) => ({
    id: String(record.id),
    name: recordName(order, record) ?? String(record.id),
    record,
  }));
}

function actionNamed(session: SessionValue, data: DataProvider, name: string): BulkAction {
  const found = bulkActions(model, order, data.calls('Order'), session).find(
    (action) => actionName(action) === name,
  );
  if (!found) throw new Error(`no bulk action ${name}`);
  return found;
}

function run(
  session: SessionValue,
  data: DataProvider,
  action: BulkAction,
  items: BulkItem[],
  runKey: string,
) {
  const progress: number[] = [];
  const now = new Date();
  const done = runBulk({
    model,
    data,
    i18n,
    entity: 'Order',
    action,
    items,
    runKey,
    refusal: (record) => refusal(model, order, data.calls('Order'), session, i18n, action, record, now),
    onProgress: (finished) => progress.push(finished),
  });
  return done.then((report) => ({ report, progress }));
}

describe('bulk actions on a list', () => {
  it('offers what the role may do to some records: the owner deletes, a clerk only moves orders along', () => {
    const data = createMemoryDataProvider(model, api, seed());
    const names = (session: SessionValue) =>
      bulkActions(model, order, data.calls('Order'), session).map(actionName);
    expect(names(owner)).toEqual([
      'transition-place',
      'transition-pay',
      'transition-ship',
      'transition-deliver',
      'transition-cancel',
      'delete',
    ]);
    // A clerk may not delete orders, nor ship them (point 6 and the transitions' roles).
    expect(names(clerk)).toEqual(['transition-place', 'transition-pay', 'transition-cancel']);
  });

  it('takes a transition on each record that allows it, and says why each other one was refused', async () => {
    const data = createMemoryDataProvider(model, api, seed());
    const items = itemsOf(data.records('Order'));
    const cancel = actionNamed(clerk, data, 'transition-cancel');
    const { report, progress } = await run(clerk, data, cancel, items, 'run-1');
    expect(report.done).toEqual(['1', '3']);
    expect(report.refused).toEqual([
      { id: '2', name: 'SO-2', reason: 'Possible only from Draft or Placed.', retry: false },
      // Another clerk's draft: the grant's condition (only one's own drafts) refuses it.
      expect.objectContaining({ id: '4', name: 'SO-4', retry: false }),
    ]);
    expect(report.refused[1]?.reason).toMatch(/clerk/i);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(data.records('Order').map((record) => record.status)).toEqual([
      'cancelled',
      'shipped',
      'cancelled',
      'draft',
    ]);
    // Nothing refused here was sent: only the two allowed transitions reached the API.
    const sent = data.log.filter((entry) => entry.method === 'transition');
    expect(sent.map((entry) => (entry.params as { id: string }).id)).toEqual(['1', '3']);
  });

  it('reports what the API refused in the catalogue’s or the API’s words', async () => {
    const data = createMemoryDataProvider(model, api, seed());
    const items = itemsOf(data.records('Order')).slice(0, 1);
    // The record as listed says placed; the API knows it was paid meanwhile.
    const stale = items.map((item) => ({ ...item, record: { ...item.record } }));
    await data.transition({ entity: 'Order', id: '1', transition: 'pay' });
    const { report } = await run(owner, data, actionNamed(owner, data, 'transition-cancel'), stale, 'run-2');
    expect(report.done).toEqual([]);
    expect(report.refused).toHaveLength(1);
    expect(report.refused[0]).toMatchObject({ id: '1', retry: false });
    expect(report.refused[0]?.reason.length).toBeGreaterThan(0);
  });

  it('tries again after a lost answer under the same keys, and changes nothing twice', async () => {
    const memory = createMemoryDataProvider(model, api, seed());
    // The API takes SO-1's transition, then the answer is lost on the way back.
    let lose = true;
    const data: DataProvider = {
      ...memory,
      async transition(params) {
        const answer = await memory.transition(params);
        if (params.id === '1' && lose) {
          lose = false;
          throw new NetworkError('the connection dropped');
        }
        return answer;
      },
    };
    const pay = actionNamed(owner, data, 'transition-pay');
    const items = itemsOf(memory.records('Order')).slice(0, 1);
    const first = await run(owner, data, pay, items, 'run-3');
    expect(first.report.refused).toEqual([expect.objectContaining({ id: '1', retry: true })]);
    expect(memory.records('Order')[0]?.status).toBe('paid');
    // The person tries the failed ones again: the same run, the same key, the API's first answer.
    const again = await run(owner, data, pay, items, 'run-3');
    expect(again.report).toEqual({ done: ['1'], refused: [] });
    const keys = memory.log
      .filter((entry) => entry.method === 'transition')
      .map((entry) => (entry.params as { idempotencyKey?: string }).idempotencyKey);
    expect(keys).toEqual(['run-3-1', 'run-3-1']);
    expect(memory.records('Order')[0]?.status).toBe('paid');
  });

  it('deletes, counting a record already gone as deleted', async () => {
    const data = createMemoryDataProvider(model, api, seed());
    const items = itemsOf(data.records('Order'));
    await data.delete({ entity: 'Order', id: '2' });
    const { report } = await run(owner, data, actionNamed(owner, data, 'delete'), items, 'run-4');
    expect(report).toEqual({ done: ['1', '2', '3', '4'], refused: [] });
    expect(data.records('Order')).toEqual([]);
  });

  it('reads every record matching the list, page after page', async () => {
    const many = {
      ...seed(),
      Order: Array.from({ length: 23 }, (_, n) => ({ ...seed().Order[0], number: `SO-${n}` })),
    };
    const data = createMemoryDataProvider(model, api, many);
    const read: number[] = [];
    const all = await collectAll(
      data,
      { entity: 'Order', page: { style: 'page', page: 3, size: 10 }, sort: [], filters: [] },
      5,
      (count) => read.push(count),
    );
    expect(all.records).toHaveLength(23);
    expect(all.complete).toBe(true);
    expect(read).toEqual([5, 10, 15, 20, 23]);
  });
});
