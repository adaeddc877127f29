import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { contentSecurityPolicy, registerClient } from '../src/client';
import { type RunningServer, serve } from '../src/serve';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';

const model = exampleModel();
const POLICY = contentSecurityPolicy();
const INDEX = '<!doctype html><html><head><base href="/" /></head><body><div id="root"></div></body></html>';

/** A stand-in for the built runtime: the tests are about serving files, not about what they hold. */
function fakeRuntime(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-client-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("client");\n');
  writeFileSync(join(dir, 'assets', 'index-AbC123.css'), 'body{margin:0}\n');
  // The runtime's build writes compressed copies beside each asset.
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.br'), brotliCompressSync('console.log("client");\n'));
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync('console.log("client");\n'));
  writeFileSync(join(dir, 'assets', '.hidden.js'), 'secret\n');
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
  writeFileSync(join(dir, '.ninefold-sources'), 'stamp\n');
  return dir;
}

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the built client served next to the prototype API (app.inject)', () => {
  let app: FastifyInstance;
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    app = await buildApp({ model, store });
    registerClient(app, { dir: fakeRuntime() });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it.each(['/', '/orders', '/orders/5/edit', '/orders?page=2&sort=-placedOn', '/_/about'])(
    'answers the deep link %s with index.html, its policy and no-cache',
    async (url) => {
      const answer = await app.inject({ method: 'GET', url, headers: HTML });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['content-security-policy']).toBe(POLICY);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.body).toBe(INDEX);
    },
  );

  it('answers a HEAD of a deep link like its GET, without a body', async () => {
    const answer = await app.inject({ method: 'HEAD', url: '/orders/5', headers: HTML });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toBe('');
  });

  it('serves a hashed asset with a year-long immutable cache, and the policy', async () => {
    const answer = await app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-security-policy']).toBe(POLICY);
    expect(answer.body).toBe('console.log("client");\n');
  });

  it('sends the compressed copy of an asset that the browser accepts, and says so', async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("client");\n');
    const gz = await app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log("client");\n');
  });

  it('sends the model compressed when the browser accepts it, serialized once', async () => {
    const plain = await app.inject({ method: 'GET', url: '/spec.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await app.inject({
      method: 'GET',
      url: '/spec.json',
      headers: { 'accept-encoding': 'br;q=1, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const refused = await app.inject({
      method: 'GET',
      url: '/spec.json',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(refused.rawPayload).toString()).toBe(plain.body);
  });

  it.each(['/assets/index-Missing.js', '/assets/.hidden.js', '/.ninefold-sources', '/favicon.ico'])(
    'answers the missing or hidden file %s with a 404 problem, never the page',
    async (url) => {
      const answer = await app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.body).not.toContain('<div id="root">');
    },
  );

  it('refuses a directory or a path that climbs out of the assets', async () => {
    for (const url of [
      '/assets/',
      '/assets/../index.html',
      '/assets/%2e%2e/index.html',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(answer.body, url).not.toContain('<div id="root">');
    }
  });

  it('serves a file at the top of the runtime (robots.txt) as itself', async () => {
    const answer = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('User-agent: *\n');
    expect(answer.headers['cache-control']).toBe('no-cache');
  });

  it('leaves the API, the model and the health check as they were', async () => {
    // The API answers for itself even to a browser's accept header: here, that the shop needs a sign-in.
    const orders = await app.inject({ method: 'GET', url: '/api/orders?limit=1', headers: HTML });
    expect(orders.statusCode).toBe(401);
    expect(orders.headers['content-type']).toContain('application/problem+json');
    expect(orders.json().code).toBe('NOT_SIGNED_IN');
    const spec = await app.inject({ method: 'GET', url: '/spec.json', headers: HTML });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().model.title).toBe('Harbor Supply');
    expect(spec.json().api.base).toBe('/api');
    const health = await app.inject({ method: 'GET', url: '/healthz', headers: HTML });
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it.each(['/api/nothing-here', '/api', '/_ninefold/events'])(
    'answers %s, reserved for the server, with a problem even when a browser asks for HTML',
    async (url) => {
      const answer = await app.inject({ method: 'GET', url, headers: HTML });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ status: 404, code: 'NO_SUCH_CALL' });
    },
  );

  it('does not answer a request for JSON, or a write, with the page', async () => {
    const json = await app.inject({ method: 'GET', url: '/orders', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json().code).toBe('NO_SUCH_CALL');
    const post = await app.inject({ method: 'POST', url: '/orders', headers: HTML, payload: {} });
    expect(post.statusCode).toBe(404);
  });
});

describe('serve() with a clientDir (real listener on 127.0.0.1)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const started = await serve({
      model,
      specFile: join(tmpdir(), 'shop.yaml'),
      db: ':memory:',
      port: 0,
      clientDir: fakeRuntime(),
      log: () => undefined,
    });
    if (!started.ok) throw new Error(started.message);
    server = started.server;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves the page at a deep link and the calls under /api on the same origin', async () => {
    const page = await fetch(`${server.url}orders/5/edit`, { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(POLICY);
    expect(await page.text()).toBe(INDEX);
    const orders = await fetch(`${server.url}api/orders`);
    expect(orders.status).toBe(401);
    expect(((await orders.json()) as { code: string }).code).toBe('NOT_SIGNED_IN');
  });

  it('serves no page without a clientDir', async () => {
    const started = await serve({
      model,
      specFile: join(tmpdir(), 'shop.yaml'),
      db: ':memory:',
      port: 0,
      log: () => undefined,
    });
    if (!started.ok) throw new Error(started.message);
    try {
      const page = await fetch(`${started.server.url}orders`, { headers: HTML });
      expect(page.status).toBe(404);
      expect(page.headers.get('content-security-policy')).toBeNull();
    } finally {
      await started.server.close();
    }
  });
});
