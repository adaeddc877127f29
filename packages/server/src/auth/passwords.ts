import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * scrypt's cost: 2^15 blocks of 8 × 128 bytes (32 MB, about 50 ms here), the OWASP recommendation for
 * scrypt. Stored with each hash, so that a later change leaves existing passwords readable.
 */
export const PASSWORD_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** scrypt refuses to use more memory than this; 2^15 × 8 × 128 needs 32 MB. */
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * A password hashed with scrypt (node:crypto) and a random salt, as one string:
 * `scrypt$N$r$p$salt$hash`, base64url. The password itself is never stored. The server always hashes at
 * PASSWORD_COST; a lower `cost` is for tests, whose users share one known password and whose sign-ins
 * (verified at the stored hash's own cost) were 40% of the node tests' CPU at the full one.
 *
 * @example
 * ```ts
 * const stored = await hashPassword('correct horse');
 * await verifyPassword('correct horse', stored); // true
 * ```
 */
export async function hashPassword(password: string, cost: ScryptCost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether a password matches a stored hash, compared in constant time. A malformed or foreign stored
 * value never matches (and never throws).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16)
    return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length === 0 || expected.length !== KEY_BYTES) return false;
  let key: Buffer;
  try {
    key = await derive(password, salt, { N, r, p });
  } catch {
    return false;
  }
  return timingSafeEqual(key, expected);
}
