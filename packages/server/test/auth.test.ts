import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/auth/passwords';
import { createSignInThrottle } from '../src/auth/sign-in-throttle';
import { signingSecrets } from '../src/auth/signing-secrets';
import { createTokenIssuer } from '../src/auth/tokens';
import type { Store } from '../src/store/store';

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
      claims: { userId: '7', role: 'clerk', expiresAt, tokenId, sessions: 0 },
    });
    // The count of ended sessions it was issued at travels with it.
    const counted = await tokens.issue({ id: '7', role: 'clerk', sessions: 3 });
    expect(await tokens.verify(counted.token)).toMatchObject({ ok: true, claims: { sessions: 3 } });
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

  it('after a rotation, still verify the previous secret’s tokens until they expire, and sign with the new', async () => {
    const before = createTokenIssuer({ secret, ttlSeconds: 900, now: () => clock });
    const old = await before.issue({ id: '7', role: 'clerk' });
    const next = randomBytes(32);
    const rotated = createTokenIssuer({ secret: next, previous: secret, ttlSeconds: 900, now: () => clock });
    expect((await rotated.verify(old.token)).ok).toBe(true);
    const fresh = await rotated.issue({ id: '7', role: 'clerk' });
    // New tokens are the new secret's: a node that has only the new one verifies them.
    const onlyNew = createTokenIssuer({ secret: next, ttlSeconds: 900, now: () => clock });
    expect((await onlyNew.verify(fresh.token)).ok).toBe(true);
    expect(await onlyNew.verify(old.token)).toEqual({ ok: false, reason: 'invalid' });
    // The previous secret's tokens end with their lifetime, like any other.
    clock += 901_000;
    expect(await rotated.verify(old.token)).toEqual({ ok: false, reason: 'expired' });
    clock -= 901_000;
    // A token of neither secret is refused by the rotated issuer too.
    const stranger = createTokenIssuer({ secret: randomBytes(32), ttlSeconds: 900, now: () => clock });
    expect(await rotated.verify((await stranger.issue({ id: '7', role: 'owner' })).token)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});

describe('the signing secret', () => {
  const store = { shared: { setting: async () => 'k'.repeat(43) } } as unknown as Store;

  it('is the configured one, checked for length, with the previous one for a rotation', async () => {
    const configured = await signingSecrets(store, 'sqlite', {
      current: `${'a'.repeat(32)}\n`,
      previous: 'b'.repeat(40),
    });
    expect(configured).toMatchObject({ ok: true, source: 'configured' });
    if (!configured.ok) return;
    // A file's final newline is not part of it.
    expect(Buffer.from(configured.secret).toString()).toBe('a'.repeat(32));
    expect(Buffer.from(configured.previous ?? []).toString()).toBe('b'.repeat(40));
    const short = await signingSecrets(store, 'postgres', { current: 'too short' });
    expect(short).toEqual({
      ok: false,
      message: expect.stringMatching(/NINEFOLD_SECRET\) has 9 bytes; it needs at least 32/),
    });
    expect(short.ok ? '' : short.message).not.toContain('too short');
    const alone = await signingSecrets(store, 'postgres', { previous: 'b'.repeat(40) });
    expect(alone).toEqual({ ok: false, message: expect.stringMatching(/without a current one/) });
  });

  it('is kept in PostgreSQL when none is configured, and is this process’s own on SQLite', async () => {
    expect(await signingSecrets(store, 'postgres')).toMatchObject({ ok: true, source: 'database' });
    const first = await signingSecrets(store, 'sqlite');
    const second = await signingSecrets(store, 'sqlite');
    expect(first).toMatchObject({ ok: true, source: 'process' });
    if (first.ok && second.ok)
      expect(Buffer.from(first.secret).equals(Buffer.from(second.secret))).toBe(false);
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
