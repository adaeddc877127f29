import { describe, expect, it } from 'vitest';
import {
  createDraftStore,
  DRAFT_TTL_MS,
  type Draft,
  type DraftStorage,
  MAX_DRAFT_CHARS,
  MAX_DRAFTS,
} from '../src/drafts/draft-store';
import { keptValues, restoredValues } from '../src/drafts/draft-values';
import { newIdempotencyKey } from '../src/drafts/idempotency-key';
import { loadExample } from './support/load-example';

/** A storage in memory that can be made to hold at most so many characters, like a full browser's. */
function memoryStorage(capacity = Number.POSITIVE_INFINITY): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  const used = () => [...map.values()].reduce((sum, value) => sum + value.length, 0);
  return {
    map,
    get length() {
      return map.size;
    },
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      if (used() - (map.get(key)?.length ?? 0) + value.length > capacity) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      map.set(key, value);
    },
    removeItem: (key) => {
      map.delete(key);
    },
  };
}

const draft = (savedAt: number, values: Draft['values'] = { name: 'Anna' }): Draft => ({
  savedAt,
  values,
  files: [],
});
const at = (id: string) => ({ app: 'Harbor Supply@/api', entity: 'Customer', id });

describe('the draft store', () => {
  it('reads back what it wrote, per app, entity and record', () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage, () => 1_000);
    expect(store.write(at('1'), draft(1_000))).toBe('kept');
    expect(store.read(at('1'))).toEqual(draft(1_000));
    expect(store.read(at('2'))).toBeUndefined();
    expect(store.read({ ...at('1'), app: 'Other@/api' })).toBeUndefined();
    expect(store.read({ ...at('1'), entity: 'Order' })).toBeUndefined();
    store.remove(at('1'));
    expect(store.read(at('1'))).toBeUndefined();
  });

  it('keeps no draft larger than the cap, and drops the older one it would otherwise bring back', () => {
    const store = createDraftStore(memoryStorage(), () => 1_000);
    store.write(at('1'), draft(1_000));
    expect(store.write(at('1'), draft(1_001, { notes: 'x'.repeat(MAX_DRAFT_CHARS) }))).toBe('too-large');
    expect(store.read(at('1'))).toBeUndefined();
  });

  it('keeps at most MAX_DRAFTS, forgetting the oldest first', () => {
    const storage = memoryStorage();
    let now = 0;
    const store = createDraftStore(storage, () => now);
    for (let index = 0; index < MAX_DRAFTS + 2; index += 1) {
      now = index;
      store.write(at(String(index)), draft(index));
    }
    expect(storage.map.size).toBe(MAX_DRAFTS);
    expect(store.read(at('0'))).toBeUndefined();
    expect(store.read(at('1'))).toBeUndefined();
    expect(store.read(at(String(MAX_DRAFTS + 1)))).toBeDefined();
  });

  it('makes room in a full storage by giving up the oldest other drafts, one at a time', () => {
    const storage = memoryStorage(600);
    const store = createDraftStore(storage, () => 10);
    store.write(at('1'), draft(1, { notes: 'a'.repeat(150) }));
    store.write(at('2'), draft(2, { notes: 'b'.repeat(150) }));
    store.write(at('3'), draft(3, { notes: 'c'.repeat(150) }));
    expect(store.write(at('4'), draft(4, { notes: 'd'.repeat(150) }))).toBe('kept');
    expect(store.read(at('1'))).toBeUndefined();
    expect(store.read(at('2'))).toBeDefined();
    expect(store.read(at('4'))).toBeDefined();
    // A draft that does not fit even alone is not kept.
    expect(store.write(at('5'), draft(5, { notes: 'e'.repeat(700) }))).toBe('unavailable');
  });

  it('no longer offers a draft past its time', () => {
    let now = 0;
    const store = createDraftStore(memoryStorage(), () => now);
    store.write(at('1'), draft(0));
    now = DRAFT_TTL_MS;
    expect(store.read(at('1'))).toBeUndefined();
  });

  it('reads nothing from a value that is not a draft, and works without a storage', () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage, () => 0);
    store.write(at('1'), draft(0));
    const key = [...storage.map.keys()][0] ?? '';
    storage.map.set(key, '{not json');
    expect(store.read(at('1'))).toBeUndefined();
    storage.map.set(key, JSON.stringify({ savedAt: 'yesterday', values: {} }));
    expect(store.read(at('1'))).toBeUndefined();
    const none = createDraftStore(undefined);
    expect(none.write(at('1'), draft(0))).toBe('unavailable');
    expect(none.read(at('1'))).toBeUndefined();
  });
});

describe('idempotency keys', () => {
  it('are version 4 UUIDs from the random bytes', () => {
    expect(newIdempotencyKey((bytes) => bytes.fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(newIdempotencyKey((bytes) => bytes.fill(0))).toBe('00000000-0000-4000-8000-000000000000');
  });
});

describe('what a draft keeps of a form', () => {
  const shop = loadExample('shop.md');
  const order = shop.entities.shown
    ? shop.entities.items.find((entity) => entity.name === 'Order')
    : undefined;
  const fields = [
    ...(order?.fields.filter((field) =>
      ['notes', 'attachment', 'lines', 'shippingAddress'].includes(field.name),
    ) ?? []),
    { name: 'pin', kind: 'text' as const, writeOnly: true },
  ];

  it('leaves out secrets and chosen files, naming the files', () => {
    const file = new File(['%PDF'], 'po.pdf', { type: 'application/pdf' });
    const kept = keptValues(shop, fields, {
      notes: 'Fragile',
      attachment: file,
      lines: [{ product: '1', quantity: '2', unitPrice: '24.5' }],
      shippingAddress: { street: '1 Quay Road', city: '', postcode: '', country: '' },
      pin: '1234',
    });
    expect(kept).toEqual({
      values: {
        notes: 'Fragile',
        lines: [{ product: '1', quantity: '2', unitPrice: '24.5' }],
        shippingAddress: { street: '1 Quay Road', city: '', postcode: '', country: '' },
      },
      files: ['Purchase order'],
    });
  });

  it('goes back over the starting values where it fits, and nowhere else', () => {
    const stored = { name: 'po.pdf', size: 2048 };
    const start = {
      notes: '',
      attachment: stored,
      lines: [],
      shippingAddress: { street: '', city: '' },
      pin: '',
    };
    expect(
      restoredValues(start, {
        notes: ['a list now'],
        lines: [{ product: '1' }],
        shippingAddress: { street: '1 Quay Road', gone: 'x' },
        removed: 'a field the form no longer has',
      }),
    ).toEqual({
      notes: '',
      attachment: stored,
      lines: [{ product: '1' }],
      shippingAddress: { street: '1 Quay Road', city: '' },
      pin: '',
    });
    expect(restoredValues(start, { attachment: null }).attachment).toBeNull();
  });
});
