// A figure as an API answers it (issue 21): the prototype API's `{ value }` or `{ groups }`, and what a
// hostile or broken answer becomes: never markup, never millions of groups, never a crash.

import { describe, expect, it } from 'vitest';
import { readFigureAnswer } from '../src/data/figure-call';

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
