import { screenAt } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { signInRedirect } from '../src/session/return-path';
import type { SessionState } from '../src/session/SessionContext';
import { loadExample } from './support/load-example';

const shop = loadExample('shop.md');
const signedOut: SessionState = { status: 'signed-out', expired: false };

function redirectAt(path: string, state: SessionState, model = shop) {
  return signInRedirect(model, state, {}, screenAt(model, path)?.screen, path);
}

describe('where a person who is not signed in is sent', () => {
  it('to the sign-in from a home dashboard whose every tile needs one, and back to it after', () => {
    expect(screenAt(shop, '/')?.screen.kind).toBe('dashboard');
    expect(redirectAt('/', signedOut)).toBe('/sign-in');
  });

  it('to the sign-in from a screen that needs one, with the way back', () => {
    expect(redirectAt('/orders/3', signedOut)).toBe('/sign-in?next=%2Forders%2F3');
  });

  it('nowhere once signed in, nor when a session just ended in the middle of work', () => {
    const user = { id: 'u1', role: 'owner', attributes: {} };
    expect(redirectAt('/', { status: 'signed-in', user })).toBeUndefined();
    expect(redirectAt('/', { status: 'signed-out', expired: true })).toBeUndefined();
  });

  it('nowhere from a dashboard with a tile anyone may see', () => {
    if (!shop.roles.shown) throw new Error('the shop shows point 6');
    // A variant with a sign-in but no grants, whose products' list names no roles: for everyone.
    const open = {
      ...shop,
      screens: shop.screens.shown
        ? {
            ...shop.screens,
            items: shop.screens.items.map((screen) =>
              screen.kind === 'list' && screen.entity === 'Product'
                ? { ...screen, roles: undefined }
                : screen,
            ),
          }
        : shop.screens,
      roles: { ...shop.roles, grants: [] },
    };
    const home = screenAt(open, '/')?.screen;
    if (home?.kind !== 'dashboard') throw new Error('the home is a dashboard');
    expect(home.tiles.some((tile) => tile === 'products')).toBe(true);
    expect(redirectAt('/', signedOut, open)).toBeUndefined();
  });
});
