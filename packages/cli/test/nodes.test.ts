// Two real `ninefold serve` processes on one PostgreSQL: what one node knows, the other knows too.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresUnavailable, withTemporaryDatabase } from '../../server/test/support/databases';
import {
  getJson,
  printedPassword,
  type Running,
  root,
  signIn,
  start,
  tempSpec,
} from './support/serve-process';

const pgReason = await postgresUnavailable();
if (pgReason && process.env.CI === 'true') throw new Error(`CI must run the two-node test: ${pgReason}`);

const shopYaml = readFileSync(join(root, 'examples/shop.yaml'), 'utf8');

async function node(spec: string, url: string): Promise<Running> {
  const server = await start([spec, '--db', url, '--seed', '10', '--no-client'], {
    NINEFOLD_SECRET: '',
    NINEFOLD_DEMO_PASSWORD: '',
  });
  if ('failed' in server) throw new Error(`serve exited ${server.failed}: ${server.stderr}`);
  return server;
}

/** Opens the events stream as the client does: `fetch`, the token in the Authorization header. */
async function openStream(server: Running, headers: Record<string, string>) {
  const controller = new AbortController();
  const answer = await fetch(`${server.url}/api/_events`, { headers, signal: controller.signal });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    /** Waits for the first `change` event whose data matches; answers it with when it came. */
    async next(match: (data: Record<string, unknown>) => boolean, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (const block of text.split('\n\n')) {
          const data = /^event: change\ndata: (.*)$/m.exec(block)?.[1];
          if (data && /^event: change$/m.test(block)) {
            const parsed = JSON.parse(data) as Record<string, unknown>;
            if (match(parsed)) return { data: parsed, at: Date.now() };
          }
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms:\n${text}`);
        const chunk = await Promise.race([
          reader.read(),
          new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), left)),
        ]);
        if (chunk === 'late') continue;
        if (chunk.done) throw new Error(`the stream ended:\n${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

describe('two nodes on one PostgreSQL', () => {
  it.skipIf(pgReason !== undefined)(
    `share sessions, sign-outs, the sign-in throttle, the seed and live updates${pgReason ? ` — skipped: ${pgReason}` : ''}`,
    async () => {
      await withTemporaryDatabase('nodes', async (url) => {
        const spec = tempSpec(shopYaml);
        // Started together with the same flags: one seeds and makes the demo users, the other waits.
        const [a, b] = await Promise.all([node(spec, url), node(spec, url)]);
        const password = await printedPassword(a, 'owner@demo.test');
        expect(await printedPassword(b, 'owner@demo.test')).toBe(password);
        for (const server of [a, b]) {
          expect(server.stdout()).toContain('sessions are signed with a secret kept in the database');
        }
        // The password is kept for later starts in a file only its owner may read.
        const file = join(dirname(spec), 'shop.ninefold.demo-password');
        expect(readFileSync(file, 'utf8').trim()).toBe(password);
        expect(statSync(file).mode & 0o777).toBe(0o600);

        const owner = await signIn(a, 'owner@demo.test', password);
        const customers = await getJson(`${b.url}/api/customers?limit=100`, { headers: owner });
        // A token from A works on B, and the seed ran once, not once per node.
        expect(customers.total).toBe(10);

        // A write on A reaches a stream open on B within a second.
        const stream = await openStream(b, owner);
        const written = Date.now();
        const created = await fetch(`${a.url}/api/customers`, {
          method: 'POST',
          headers: { ...owner, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Node A Traders', email: 'a@traders.test', active: true }),
        });
        expect(created.status).toBe(201);
        const event = await stream.next((data) => data.entity === 'Customer' && data.kind === 'created');
        expect(event.at - written).toBeLessThan(1000);
        expect((event.data.record as Record<string, unknown>).name).toBe('Node A Traders');
        expect((event.data.by as { name: string }).name).toBeTruthy();
        stream.close();

        // Failed sign-ins on A slow the next attempt on B.
        for (let attempt = 0; attempt < 3; attempt++) {
          const failed = await fetch(`${a.url}/api/auth/sign-in`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'clerk@demo.test', password: 'wrong-password' }),
          });
          expect(failed.status).toBe(401);
        }
        const throttled = await fetch(`${b.url}/api/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'clerk@demo.test', password }),
        });
        expect(throttled.status).toBe(429);

        // Signing out on B refuses the token on A too.
        const other = await signIn(b, 'owner@demo.test', password);
        expect((await fetch(`${a.url}/api/customers?limit=1`, { headers: other })).status).toBe(200);
        expect((await fetch(`${b.url}/api/auth/sign-out`, { method: 'POST', headers: other })).status).toBe(
          204,
        );
        expect((await fetch(`${a.url}/api/customers?limit=1`, { headers: other })).status).toBe(401);

        // A restart keeps sessions: the secret is the database's, not the process's.
        a.child.kill('SIGTERM');
        expect(await a.exited).toBe(0);
        const again = await node(spec, url);
        expect(again.stdout()).toContain(`demo password: ${password}`);
        expect((await fetch(`${again.url}/api/customers?limit=1`, { headers: owner })).status).toBe(200);

        // Killing one node leaves the other serving.
        b.child.kill('SIGKILL');
        await b.exited;
        const after = await getJson(`${again.url}/api/customers?limit=100`, { headers: owner });
        expect(after.total).toBe(11);
        again.child.kill('SIGTERM');
        expect(await again.exited).toBe(0);
      });
    },
    120_000,
  );
});
