// serve's settings: each from its flag or else its NINEFOLD_ variable, the secret files read, the origins
// checked; nothing secret repeated in a message.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveConfig } from '../src/serve-config';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-config-'));
const secretFile = join(dir, 'secret');
writeFileSync(secretFile, `${'s'.repeat(48)}\n`, { mode: 0o600 });

describe('serve settings', () => {
  it('take each flag over its NINEFOLD_ variable, and never a variable meant for another program', async () => {
    const env = {
      NINEFOLD_DATABASE_URL: 'postgres://app@db/shop',
      NINEFOLD_PORT: '4001',
      NINEFOLD_HOST: '0.0.0.0',
      NINEFOLD_BODY_LIMIT: '2048',
      NINEFOLD_ALLOWED_ORIGINS: 'https://admin.example.com, http://localhost:5173',
      NINEFOLD_SECRET: 'x'.repeat(40),
      NINEFOLD_DEMO_PASSWORD: 'demo-password',
      NINEFOLD_LOG_LEVEL: 'debug',
      NINEFOLD_METRICS_PORT: '9464',
      NINEFOLD_METRICS_TOKEN: 'm'.repeat(20),
      NINEFOLD_DRAIN_SECONDS: '3',
      NINEFOLD_AUDIT_DAYS: '400',
      PORT: '9999',
      DATABASE_URL: 'postgres://someone-else/db',
    };
    const fromEnv = await serveConfig({}, env);
    expect(fromEnv).toEqual({
      ok: true,
      config: {
        db: 'postgres://app@db/shop',
        port: '4001',
        host: '0.0.0.0',
        bodyLimit: '2048',
        allowedOrigins: ['https://admin.example.com', 'http://localhost:5173'],
        secret: 'x'.repeat(40),
        demoPassword: 'demo-password',
        liveUpdates: true,
        logLevel: 'debug',
        metricsPort: '9464',
        metricsToken: 'm'.repeat(20),
        drainSeconds: '3',
        audit: true,
        auditDays: '400',
        warnings: [],
      },
    });
    const flags = await serveConfig(
      { db: ':memory:', port: '0', 'allow-origin': ['https://other.example'], 'secret-file': secretFile },
      env,
    );
    expect(flags.ok && flags.config).toMatchObject({
      db: ':memory:',
      port: '0',
      allowedOrigins: ['https://other.example'],
      secret: 's'.repeat(48),
    });
    expect((await serveConfig({}, { PORT: '9999', DATABASE_URL: 'x' })).ok && 'port').toBe('port');
    const none = await serveConfig({}, { PORT: '9999', DATABASE_URL: 'postgres://x/y' });
    expect(none.ok && none.config.port).toBeUndefined();
    expect(none.ok && none.config.db).toBeUndefined();
  });

  it('turn live updates off by flag or variable, and refuse a value that is neither on nor off', async () => {
    expect((await serveConfig({}, { NINEFOLD_LIVE_UPDATES: 'off' })).ok && 'off').toBe('off');
    const off = await serveConfig({}, { NINEFOLD_LIVE_UPDATES: 'OFF' });
    expect(off.ok && off.config.liveUpdates).toBe(false);
    const flag = await serveConfig({ 'no-live-updates': true }, { NINEFOLD_LIVE_UPDATES: 'on' });
    expect(flag.ok && flag.config.liveUpdates).toBe(false);
    const on = await serveConfig({}, {});
    expect(on.ok && on.config.liveUpdates).toBe(true);
    expect((await serveConfig({}, { NINEFOLD_LIVE_UPDATES: 'maybe' })).ok).toBe(false);
  });

  it('turn the audit trail off by flag or variable, and refuse a value that is neither on nor off', async () => {
    const off = await serveConfig({}, { NINEFOLD_AUDIT: 'off' });
    expect(off.ok && off.config.audit).toBe(false);
    const flag = await serveConfig({ 'no-audit': true }, { NINEFOLD_AUDIT: 'on' });
    expect(flag.ok && flag.config.audit).toBe(false);
    const on = await serveConfig({}, {});
    expect(on.ok && on.config.audit).toBe(true);
    const wrong = await serveConfig({}, { NINEFOLD_AUDIT: 'sometimes' });
    expect(!wrong.ok && wrong.message).toBe('NINEFOLD_AUDIT is on or off, not "sometimes".');
  });

  it('refuse an origin that is not one, a secret file that cannot be read, and a short demo password', async () => {
    for (const origin of ['admin.example.com', 'https://admin.example.com/path', 'ftp://x.example', '*']) {
      const checked = await serveConfig({ 'allow-origin': [origin] }, {});
      expect(checked.ok, origin).toBe(false);
    }
    const missing = await serveConfig({ 'secret-file': join(dir, 'nope') }, {});
    expect(missing).toEqual({ ok: false, message: expect.stringContaining('there is no such file') });
    const short = await serveConfig({}, { NINEFOLD_DEMO_PASSWORD: 'short' });
    expect(short).toEqual({ ok: false, message: expect.stringContaining('at least 8 characters') });
    expect(short.ok ? '' : short.message).not.toContain('short ');
  });

  it('warn of a secret file others may read, without saying what it holds', async () => {
    const open = join(dir, 'open-secret');
    writeFileSync(open, 'o'.repeat(40));
    chmodSync(open, 0o644);
    const checked = await serveConfig({ 'secret-file': open }, {});
    expect(checked.ok && checked.config.warnings).toEqual([expect.stringContaining(`chmod 600 ${open}`)]);
    expect(JSON.stringify(checked.ok && checked.config.warnings)).not.toContain('oooo');
  });
});
