import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresUnavailable, withTemporaryDatabase } from '../../server/test/support/databases';
import { getJson, printedPassword, root, signIn, start, tempSpec } from './support/serve-process';

const pgReason = await postgresUnavailable();
if (pgReason && process.env.CI === 'true')
  throw new Error(`CI must run the PostgreSQL serve test: ${pgReason}`);

const shopYaml = readFileSync(join(root, 'examples/shop.yaml'), 'utf8');

describe('ninefold serve (real process)', () => {
  it('serves the rich example on SQLite next to the spec, seeded, and stops cleanly on SIGTERM', async () => {
    const spec = tempSpec(shopYaml);
    const server = await start([spec, '--seed', '20']);
    if ('failed' in server) throw new Error(`serve exited ${server.failed}: ${server.stderr}`);
    expect(server.stdout()).toContain('Ninefold prototype API for Harbor Supply on SQLite');
    expect(server.stdout()).toContain('shop.ninefold.db');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // --seed makes a demo user per role, with a password printed for this start only.
    const password = await printedPassword(server, 'owner@demo.test');
    expect(server.stdout()).toContain(
      'owner@demo.test, clerk@demo.test, warehouse@demo.test, customer@demo.test',
    );
    expect(server.stderr()).not.toContain(password);
    expect((await fetch(`${server.url}/api/orders`)).status).toBe(401);
    const headers = await signIn(server, 'owner@demo.test', password);
    const orders = await getJson(`${server.url}/api/orders?limit=5&sort=-placedOn`, { headers });
    expect(orders.total).toBe(20);
    expect(orders.items).toHaveLength(5);
    // Derived totals are stored for seeded orders too, so sorting by them works.
    const byTotal = await getJson(`${server.url}/api/orders?limit=100&sort=-total`, { headers });
    const totals = (byTotal.items ?? []).map((order) => order.total as number);
    expect(totals.every((total) => typeof total === 'number')).toBe(true);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const customers = await getJson(`${server.url}/api/customers?limit=100`, { headers });
    expect(customers.total).toBe(20);
    // The demo customer is linked to a customer, so their condition shows them their own orders only.
    const customer = await signIn(server, 'customer@demo.test', password);
    const theirs = await getJson(`${server.url}/api/orders?limit=100`, { headers: customer });
    expect(theirs.total).toBeGreaterThan(0);
    expect(theirs.total).toBeLessThan(20);
    expect(new Set((theirs.items ?? []).map((order) => order.customer)).size).toBe(1);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('SIGTERM: finishing requests in flight and closing the database');
  });

  it('migrates additive changes, and refuses a change that would drop data unless allowed', async () => {
    const spec = tempSpec(shopYaml);
    const first = await start([spec, '--seed', '5', '--user', 'ann@shop.test:owner']);
    if ('failed' in first) throw new Error(first.stderr);
    const password = await printedPassword(first, 'ann@shop.test');
    // Regression: a signal right as the URL appears used to kill the process before its handlers were
    // installed (exit by signal, database not closed).
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    // Additive: a new field on Product becomes a column; the stored products stay.
    writeFileSync(
      spec,
      shopYaml.replace(
        '      description: { kind: markdown }',
        '      description: { kind: markdown }\n      barcode: { kind: text }',
      ),
    );
    const second = await start([spec, '--user', 'ann@shop.test:owner']);
    if ('failed' in second) throw new Error(second.stderr);
    expect(second.stderr()).toContain('add column');
    // The user made at the first start is kept, with the password printed then.
    await expect.poll(() => second.stdout()).toContain('ann@shop.test (owner): exists already');
    const headers = await signIn(second, 'ann@shop.test', password);
    const products = await getJson(`${second.url}/api/products`, { headers });
    expect(products.total).toBe(5);
    // An update names the version it read (If-Match), as the client does.
    const read = await fetch(`${second.url}/api/products/1`, { headers });
    const patched = await getJson(`${second.url}/api/products/1`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': read.headers.get('etag') ?? '', ...headers },
      body: JSON.stringify({ barcode: '4006381333931' }),
    });
    expect(patched.barcode).toBe('4006381333931');
    second.child.kill('SIGTERM');
    await second.exited;

    // Destructive: removing Customer.phone would drop stored phone numbers.
    const withoutPhone = shopYaml.replace(/^ {6}phone: \{[^\n]*\}\n/m, '');
    expect(withoutPhone).not.toBe(shopYaml);
    writeFileSync(spec, withoutPhone);
    const refused = await start([spec]);
    expect('failed' in refused && refused.failed).toBe(1);
    const message = 'failed' in refused ? refused.stderr : '';
    expect(message).toContain('would lose stored data');
    expect(message).toMatch(/Customer.*phone|phone.*Customer/);
    expect(message).toContain('--allow-destructive');

    const allowed = await start([spec, '--allow-destructive']);
    if ('failed' in allowed) throw new Error(allowed.stderr);
    const customer = await getJson(`${allowed.url}/api/customers/1`, {
      headers: await signIn(allowed, 'ann@shop.test', password),
    });
    expect(customer.phone).toBeUndefined();
    expect(customer.name).toBeTruthy();
    allowed.child.kill('SIGTERM');
    expect(await allowed.exited).toBe(0);
    // Four starts of a real process: on a busy two-core machine one took 30 s.
  }, 90_000);

  it('refuses a --user of a role point 6 does not name, before touching the database', async () => {
    const spec = tempSpec(shopYaml);
    const result = await start([spec, '--user', 'ann@shop.test:admin']);
    expect('failed' in result && result.failed).toBe(2);
    expect('failed' in result ? result.stderr : '').toContain(
      '"admin" is not a role of point 6. Use one of: owner, clerk, warehouse, customer.',
    );
  });

  it('refuses to start on a specification with errors, with the check report', async () => {
    const spec = tempSpec(shopYaml.replace('entity: Customer\n    columns', 'entity: Custmer\n    columns'));
    const result = await start([spec]);
    expect('failed' in result && result.failed).toBe(1);
    expect('failed' in result ? result.stderr : '').toContain('did you mean "Customer"?');
  });

  it.skipIf(pgReason !== undefined)(
    `serves the rich example on PostgreSQL${pgReason ? ` — skipped: ${pgReason}` : ''}`,
    async () => {
      await withTemporaryDatabase('serve', async (url) => {
        const server = await start([join(root, 'examples/shop.md'), '--db', url, '--seed', '20']);
        if ('failed' in server) throw new Error(server.stderr);
        const { host, pathname } = new URL(url);
        expect(server.stdout()).toContain(`on PostgreSQL (${host}${pathname})`);
        const headers = await signIn(
          server,
          'owner@demo.test',
          await printedPassword(server, 'owner@demo.test'),
        );
        const orders = await getJson(`${server.url}/api/orders?status=draft`, { headers });
        expect(orders.total).toBeGreaterThan(0);
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      });
    },
  );
});
