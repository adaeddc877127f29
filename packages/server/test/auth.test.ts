import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/auth/passwords';
import { createSignInThrottle } from '../src/auth/sign-in-throttle';
import { createTokenIssuer } from '../src/auth/tokens';

describe('passwords', () => {
  it('are stored as salted scrypt hashes that verify only the same password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    // The same password twice: two salts, two hashes.
    expect(await hashPassword('correct horse battery')).not.toBe(stored);
  });

  it('never match a malformed or foreign stored value, and never throw on one', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$1$8$1$$',
      'bcrypt$2b$10$abc',
      'scrypt$99999999$8$1$c2FsdA$aGFzaA',
    ]) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });
});

describe('session tokens', () => {
  const secret = randomBytes(32);
  let clock = Date.UTC(2026, 0, 1);
  const tokens = createTokenIssuer({ secret, ttlSeconds: 3600, now: () => clock });

  it('carry the user and role until they expire', async () => {
    const { token, expiresAt, tokenId } = await tokens.issue({ id: '7', role: 'clerk' });
    expect(await tokens.verify(token)).toEqual({
      ok: true,
      claims: { userId: '7', role: 'clerk', expiresAt, tokenId },
    });
    clock += 3601_000;
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
    clock -= 3601_000;
  });

  it('refuse a token altered in any part, signed with none, or signed with another secret', async () => {
    const { token } = await tokens.issue({ id: '7', role: 'clerk' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'owner' })).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toEqual({ ok: false, reason: 'invalid' });
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(await tokens.verify(`${none}.${forged}.`)).toEqual({ ok: false, reason: 'invalid' });
    // HS256 with a guessed secret: a correct signature over the forged claims, but not with ours.
    const other = createHmac('sha256', randomBytes(32)).update(`${header}.${forged}`).digest('base64url');
    expect(await tokens.verify(`${header}.${forged}.${other}`)).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify('not a token')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuse a token issued for another service', async () => {
    const elsewhere = createTokenIssuer({
      secret,
      ttlSeconds: 3600,
      issuer: 'another-api',
      now: () => clock,
    });
    const { token } = await elsewhere.issue({ id: '7', role: 'owner' });
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('need a secret of at least 32 bytes', () => {
    expect(() => createTokenIssuer({ secret: randomBytes(16), ttlSeconds: 60 })).toThrow(/32 bytes/);
  });
});

describe('sign-in throttling', () => {
  it('makes the attempt after three failures wait, doubles the wait with each further one, and forgets on success', async () => {
    let clock = 0;
    const throttle = createSignInThrottle({ free: 3, baseSeconds: 1, maxSeconds: 8, now: () => clock });
    const key = 'ann@example.com|127.0.0.1';
    const waits: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      await throttle.failed(key);
      const check = await throttle.check(key);
      waits.push(check.allowed ? 0 : check.retryAfterSeconds);
    }
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 8, 8]);
    clock += 7_000;
    expect(await throttle.check(key)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock += 1_000;
    expect(await throttle.check(key)).toEqual({ allowed: true });
    // Another account from the same address is not slowed down.
    expect(await throttle.check('bob@example.com|127.0.0.1')).toEqual({ allowed: true });
    await throttle.succeeded(key);
    await throttle.failed(key);
    expect(await throttle.check(key)).toEqual({ allowed: true });
  });
});
