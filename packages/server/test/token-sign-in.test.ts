import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec, type Model } from '@ninefold/model';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, openStore, provisionUsers } from '../src/index';

// `access token` sign-in: the person pastes a personal access token, which the prototype API reads as
// the user's key in `Authorization: Bearer`, so a client with that sign-in works against it too.
const EXAMPLES = join(import.meta.dirname, '../../../examples');

function shopWithToken(): Model {
  const text = readFileSync(join(EXAMPLES, 'shop.md'), 'utf8').replace(
    '- Kind: password\n- Call: signIn\n',
    '- Kind: access token\n',
  );
  const loaded = loadSpec(text, { file: 'shop.md' });
  if (!loaded.model || !loaded.ok) throw new Error(JSON.stringify(loaded.issues.slice(0, 3)));
  return loaded.model;
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

describe('access token sign-in on the prototype API', () => {
  it('takes a user’s token as a bearer token, and nothing else', async () => {
    const model = shopWithToken();
    expect(model.roles.shown && model.roles.signIn.kind).toBe('token');
    const store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({ model, store });
    closing.push(async () => {
      await app.close();
      await store.close();
    });
    const made = await provisionUsers(store, model, { users: [], demo: true });
    if (!made.ok) throw new Error(made.message);
    expect(made.secretKind).toBe('token');
    const owner = made.users.find((user) => user.role === 'owner');
    if (owner?.secret === undefined) throw new Error('no owner was made');

    const ask = (authorization?: string) =>
      app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: authorization === undefined ? {} : { authorization },
      });
    const signedIn = await ask(`Bearer ${owner.secret}`);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email: owner.email, role: 'owner' } });
    expect((await ask('Bearer not-a-token')).json()).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await ask('Bearer not-a-token')).statusCode).toBe(401);
    expect((await ask(`Basic ${Buffer.from(`${owner.email}:x`).toString('base64')}`)).statusCode).toBe(401);
    expect((await ask()).statusCode).toBe(401);
  });
});
