import type { Screen } from '@ninefold/model';
import { createScreenMatcher } from '@ninefold/model';
import { describe, expect, it } from 'vitest';

const screen = (name: string, route: string): Screen =>
  ({ name, kind: 'list', route, entity: 'X' }) as Screen;

const screens = [
  screen('articles', '/articles'),
  screen('article', '/articles/:slug'),
  screen('new-article', '/articles/new'),
  screen('edit-article', '/articles/:slug/edit'),
  screen('employees', '/stores/:storeId/employees'),
  screen('employee', '/stores/:storeId/employees/:employeeId'),
];
const match = createScreenMatcher(screens);
const found = (path: string) => {
  const result = match(path);
  return result && { name: result.screen.name, params: result.params };
};

describe('finding the screen at an address', () => {
  it('prefers a static segment to a parameter, whatever the order of the screens', () => {
    expect(found('/articles/new')).toEqual({ name: 'new-article', params: {} });
    expect(found('/articles/how-to')).toEqual({ name: 'article', params: { slug: 'how-to' } });
  });

  it('fills every parameter of a nested route, decoded', () => {
    expect(found('/stores/7/employees/a%20b')).toEqual({
      name: 'employee',
      params: { storeId: '7', employeeId: 'a b' },
    });
    expect(found('/stores/7/employees')).toEqual({ name: 'employees', params: { storeId: '7' } });
  });

  it('ignores case in static segments and a trailing slash, as React Router does', () => {
    expect(found('/Articles/')?.name).toBe('articles');
    expect(found('/articles/x/EDIT')).toEqual({ name: 'edit-article', params: { slug: 'x' } });
  });

  it('keeps a malformed escape as written instead of failing', () => {
    expect(found('/articles/%E0%A4%A')).toEqual({ name: 'article', params: { slug: '%E0%A4%A' } });
  });

  it('finds nothing where no screen lives', () => {
    expect(found('/')).toBeUndefined();
    expect(found('/articles/x/y/z')).toBeUndefined();
    expect(found('/stores')).toBeUndefined();
  });
});
