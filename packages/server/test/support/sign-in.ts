import type { JsonValue } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/auth/passwords';
import { addUser } from '../../src/auth/users';
import type { Store } from '../../src/store/store';

export const TEST_PASSWORD = 'correct horse battery';

/**
 * Adds a user of a role and signs in through the prototype API's own sign-in call, as a client would;
 * answers the header that later requests carry.
 */
export async function signInAs(
  app: FastifyInstance,
  store: Store,
  role: string,
  attributes: Record<string, JsonValue> = {},
  email = `${role}@shop.test`,
  base = '/api',
): Promise<{ authorization: string; userId: string }> {
  const added = await addUser(
    store,
    { email, role, attributes },
    { password: TEST_PASSWORD, passwordHash: await testPasswordHash() },
  );
  if (!added.ok) throw new Error(added.message);
  const answer = await app.inject({
    method: 'POST',
    url: `${base}/auth/sign-in`,
    payload: { email, password: TEST_PASSWORD },
  });
  if (answer.statusCode !== 200) throw new Error(`sign-in answered ${answer.statusCode}: ${answer.body}`);
  return { authorization: `Bearer ${answer.json().token}`, userId: added.user.id };
}

let hashed: Promise<string> | undefined;
/**
 * TEST_PASSWORD hashed once per process, in the server's own format, at a low cost: scrypt at the
 * server's costs about 190 ms on these machines, paid again at every sign-in, which verifies at the
 * stored hash's own cost; the node tests signed in about 500 times. Signing in still verifies it as for
 * anyone, and the server's own cost is tested where users are added (auth.test.ts).
 */
function testPasswordHash(): Promise<string> {
  hashed ??= hashPassword(TEST_PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
  return hashed;
}
