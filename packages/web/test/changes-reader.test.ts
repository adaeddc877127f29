import { describe, expect, it } from 'vitest';
import { parseChanges, readChanges } from '../src/audit/changes-reader';

describe('a record’s changes, as the audit trail answers them', () => {
  it('asks for one record’s page, its key and entity encoded, and reads its entries and next page', async () => {
    const asked: string[] = [];
    const page = await readChanges({
      base: '/api/',
      audit: '/_audit',
      entity: 'Order',
      id: '12/../../users',
      limit: 10,
      before: '40',
      fetch: async (input) => {
        asked.push(String(input));
        return new Response(
          JSON.stringify({
            items: [
              {
                id: 39,
                at: '2026-06-01T12:00:00.000Z',
                entity: 'Order',
                key: '12',
                action: 'transition',
                transition: 'pay',
                call: 'POST /api/orders/:id/pay',
                by: { id: 'u1', name: 'Ann Lee' },
                changes: [{ field: 'status', before: 'placed', after: 'paid' }],
              },
            ],
            next: '39',
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      },
    });
    expect(asked).toEqual(['/api/_audit/Order/12%2F..%2F..%2Fusers?limit=10&before=40']);
    expect(page).toEqual({
      entries: [
        {
          id: 39,
          at: '2026-06-01T12:00:00.000Z',
          entity: 'Order',
          key: '12',
          action: 'transition',
          transition: 'pay',
          by: { id: 'u1', name: 'Ann Lee' },
          changes: [{ field: 'status', before: 'placed', after: 'paid' }],
        },
      ],
      next: '39',
    });
  });

  it('keeps only well-formed entries of a hostile answer, and tells an unnamed writer from an untold one', () => {
    const page = parseChanges({
      items: [
        null,
        { id: '1', at: 'x', action: 'update', changes: [] },
        { id: 2, at: 'now', action: 'drop tables', changes: [] },
        {
          id: 3,
          at: 'now',
          entity: 'Note',
          key: 1,
          action: 'update',
          changes: [{ field: 'notes', after: '<img src=x onerror=alert(1)>' }, { nope: 1 }],
        },
        { id: 4, at: 'now', entity: 'Note', key: '2', action: 'create', by: null, changes: [] },
        { id: 5, at: 'now', action: 'create', changes: [] },
      ],
      next: 7,
    });
    expect(page.next).toBeUndefined();
    expect(page.entries.map((entry) => entry.id)).toEqual([3, 4]);
    // The value stays data: the screen shows it as text, never as markup.
    expect(page.entries[0]?.changes).toEqual([{ field: 'notes', after: '<img src=x onerror=alert(1)>' }]);
    expect('by' in (page.entries[0] ?? {})).toBe(false);
    expect(page.entries[1]?.by).toBeNull();
    expect(parseChanges('not json at all')).toEqual({ entries: [] });
  });
});
