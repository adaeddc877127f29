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
 * TEST_PASSWORD hashed once per process, in the server's own format: scrypt costs about 190 ms on these
 * machines, and the node tests added 393 users, each hashing the same password again. Signing in still
 * verifies it as for anyone (addUser's own tests hash per user).
 */
function testPasswordHash(): Promise<string> {
  hashed ??= hashPassword(TEST_PASSWORD);
  return hashed;
}
