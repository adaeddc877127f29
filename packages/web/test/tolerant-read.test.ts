import type { Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { readTolerantly } from '../src/data/tolerant-read';
import { readTokenAnswer } from '../src/session/sign-in-answer';
import { loadExample } from './support/load-example';

// Real servers send values in the shapes their databases hold them (issue 39): SQLite's booleans as 1
// and 0 showed as unchecked, and PostgreSQL's numerics come as strings.
const shop = loadExample('shop.yaml');
const withEvent: Model = {
  ...shop,
  entities: {
    shown: true,
    items: [
      {
        name: 'Event',
        key: 'id',
        fields: [
          { name: 'id', kind: 'integer' },
          { name: 'published', kind: 'boolean' },
          { name: 'places', kind: 'integer' },
          { name: 'price', kind: 'number' },
          { name: 'title', kind: 'text' },
        ],
      },
    ],
  },
};

describe('reading an answer tolerantly', () => {
  it('reads 0/1 and "true"/"false" as booleans, and numeric strings as numbers, for fields of those kinds', () => {
    expect(
      readTolerantly(withEvent, 'Event', { id: '7', published: 1, places: '40', price: '12.50', title: '1' }),
    ).toEqual({ id: 7, published: true, places: 40, price: 12.5, title: '1' });
    expect(readTolerantly(withEvent, 'Event', { published: '0' })).toEqual({ published: false });
    expect(readTolerantly(withEvent, 'Event', { published: 'false' })).toEqual({ published: false });
  });

  it('keeps anything else exactly as sent, and the record itself when nothing changes', () => {
    const odd = { id: 'abc', published: 'yes', places: '4.5e400', price: null };
    expect(readTolerantly(withEvent, 'Event', odd)).toBe(odd);
    expect(readTolerantly(withEvent, 'Event', { places: '12345678901234567890' })).toEqual({
      places: '12345678901234567890',
    });
    const plain = { id: 1, published: true };
    expect(readTolerantly(withEvent, 'Event', plain)).toBe(plain);
  });
});

describe('a sign-in answer that wraps its token', () => {
  it('takes the token, its refresh token and its life from `{ data: { access_token } }`, and no person from the wrapper (Directus)', () => {
    const read = readTokenAnswer(
      { data: { access_token: 'eyJ.a.b', expires: 900000, refresh_token: 'r' } },
      1_000,
    );
    // Directus's `expires` is the token's life in milliseconds.
    expect(read).toEqual({ token: 'eyJ.a.b', refreshToken: 'r', expiresAt: 901_000 });
  });

  it('reads a large `expires` as a time since the epoch, in seconds or milliseconds', () => {
    const at = Date.parse('2026-06-01T12:00:00Z');
    expect(readTokenAnswer({ token: 't', expires: at / 1000 }, 0)?.expiresAt).toBe(at);
    expect(readTokenAnswer({ token: 't', expires: at }, 0)?.expiresAt).toBe(at);
  });

  it('still takes the person when the wrapper is one (Conduit’s `{ user: { email, token } }`)', () => {
    const read = readTokenAnswer({ user: { email: 'jake@jake.jake', token: 'jwt', username: 'jake' } }, 0);
    expect(read?.user).toEqual({ email: 'jake@jake.jake', token: 'jwt', username: 'jake' });
  });
});
