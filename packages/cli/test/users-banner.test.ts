import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSpec, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { usersBanner } from '../src/users-banner';

const load = (name: string) => {
  const file = resolve(import.meta.dirname, '../../../examples', name);
  return loadSpec(readFileSync(file, 'utf8'), { file }).model as Model;
};

describe('who to sign in as, printed at start', () => {
  it('says how to get a user when a start with a sign-in made nobody', () => {
    const text = usersBanner({ ok: true, users: [], secretKind: 'password' }, load('shop.md'));
    expect(text).toContain('No user was made at this start');
    expect(text).toContain('--seed N');
    expect(text).toContain('--user EMAIL:ROLE');
  });

  it('says nothing of the kind for a specification nobody signs in to, or when users were made', () => {
    expect(usersBanner({ ok: true, users: [], secretKind: 'password' }, load('empty.md'))).toBe('');
    const made = usersBanner(
      {
        ok: true,
        secretKind: 'password',
        users: [{ email: 'owner@demo.test', role: 'owner', demo: true, secret: 's3cret' }],
      } as Parameters<typeof usersBanner>[0],
      load('shop.md'),
    );
    expect(made).toContain('demo password: s3cret');
    expect(made).not.toContain('No user was made');
  });
});
