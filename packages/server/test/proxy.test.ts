import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ProxyTarget,
  parseProxyTarget,
  proxiedPath,
  proxyRequestHeaders,
  proxyResponseHeaders,
  rewriteLocation,
  rewriteSetCookie,
} from '../src/dev-proxy';
import { type DevServer, startDevServer } from '../src/dev-server';
import { exampleModel } from './support/databases';

const model = exampleModel();

function fakeRuntime(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-proxy-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>client</title>');
  return dir;
}

interface Seen {
  method: string;
  url: string;
  headers: Record<string, unknown>;
  body: string;
}

/** The real API behind the proxy: records what reaches it and echoes it back. */
async function startUpstream(forbiddenOrigin: () => string) {
  const seen: Seen[] = [];
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addHook('onRequest', async (request) => {
    seen.push({
      method: request.method,
      url: request.raw.url ?? '',
      headers: { ...request.headers },
      body: '',
    });
  });
  app.addHook('preHandler', async (request) => {
    const last = seen.at(-1);
    if (last && typeof request.body === 'string') last.body = request.body;
  });
  app.get('/v1/cookie', async (_request, reply) => {
    reply.header('set-cookie', ['sid=abc; Domain=127.0.0.1; Path=/v1; HttpOnly', 'theme=dark; Path=/']);
    return { ok: true };
  });
  app.get('/v1/redirect-inside', async (_request, reply) =>
    reply.redirect(`http://${_request.headers.host}/v1/orders/7?from=redirect`, 302),
  );
  app.get('/v1/redirect-away', async (_request, reply) => reply.redirect(`${forbiddenOrigin()}/steal`, 302));
  app.get('/v1/unavailable', async (_request, reply) => reply.code(503).send({ down: true }));
  app.all('/v1/*', async (request, reply) => {
    reply.header('x-upstream', 'yes');
    return {
      method: request.method,
      url: request.raw.url,
      host: request.headers.host,
      body: typeof request.body === 'string' ? request.body : null,
    };
  });
  app.all('/*', async () => ({ outsideThePrefix: true }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, seen, origin: address };
}

/** Another host on the machine that nothing may reach through the proxy. */
async function startForbidden() {
  let hits = 0;
  const app = Fastify();
  app.addHook('onRequest', async () => {
    hits += 1;
  });
  app.all('/*', async () => 'STOLEN');
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, origin: address, hits: () => hits };
}

/** Sends bytes exactly as given (no URL normalization) and returns the status and the body. */
function raw(url: string, request: string): Promise<{ status: number; body: string; text: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), text });
    });
  });
}

describe('the dev proxy (--api URL) against real upstreams on 127.0.0.1', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let forbidden: Awaited<ReturnType<typeof startForbidden>>;
  let dev: DevServer;
  let base: string;

  beforeAll(async () => {
    forbidden = await startForbidden();
    upstream = await startUpstream(() => forbidden.origin);
    const target = parseProxyTarget(`${upstream.origin}/v1/`);
    if (!target.ok) throw new Error(target.message);
    const started = await startDevServer({
      model,
      issues: [],
      clientDir: fakeRuntime(),
      api: { kind: 'proxy', target: target.target },
      port: 0,
      log: () => undefined,
    });
    if (!started.ok) throw new Error(started.message);
    dev = started.server;
    base = dev.url.replace(/\/$/, '');
  });
  afterAll(async () => {
    await dev?.close();
    await upstream?.app.close();
    await forbidden?.app.close();
  });

  it('forwards /api/* to the upstream prefix with its query, under the upstream Host', async () => {
    const answer = await fetch(`${base}/api/orders/5?sort=-placedOn&page=2`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-upstream')).toBe('yes');
    expect(await answer.json()).toEqual({
      method: 'GET',
      url: '/v1/orders/5?sort=-placedOn&page=2',
      host: new URL(upstream.origin).host,
      body: null,
    });
  });

  it('forwards bodies untouched, JSON or not', async () => {
    const json = '{"customer":  1, "notes": "keep  my spacing"}';
    const created = await fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: json,
    });
    expect(((await created.json()) as { body: string }).body).toBe(json);
    const text = await fetch(`${base}/api/notes`, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'plain words',
    });
    expect(await text.json()).toMatchObject({ method: 'PUT', url: '/v1/notes', body: 'plain words' });
  });

  it('sends cookies on, and gives back the upstream cookies for the dev origin and under /api', async () => {
    const answer = await fetch(`${base}/api/cookie`, { headers: { cookie: 'sid=previous' } });
    expect(answer.status).toBe(200);
    // A cookie for the upstream's prefix moves under /api; one for its root stays at the root.
    expect(answer.headers.getSetCookie()).toEqual(['sid=abc; Path=/api; HttpOnly', 'theme=dark; Path=/']);
    expect(upstream.seen.at(-1)?.headers.cookie).toBe('sid=previous');
  });

  it('drops hop-by-hop and client forwarding headers, and keeps the rest', async () => {
    const answer = await raw(
      base,
      'GET /api/headers HTTP/1.1\r\nHost: dev.local\r\nConnection: close, X-Drop-Me\r\nX-Drop-Me: 1\r\n' +
        'Proxy-Authorization: Basic c2VjcmV0\r\nX-Forwarded-For: 203.0.113.9\r\nForwarded: for=203.0.113.9\r\n' +
        'Authorization: Bearer token\r\nX-Custom: kept\r\n\r\n',
    );
    expect(answer.status).toBe(200);
    const headers = upstream.seen.at(-1)?.headers ?? {};
    expect(upstream.seen.at(-1)?.url).toBe('/v1/headers');
    for (const name of ['x-drop-me', 'proxy-authorization', 'x-forwarded-for', 'forwarded'])
      expect(headers[name], name).toBeUndefined();
    expect(headers.authorization).toBe('Bearer token');
    expect(headers['x-custom']).toBe('kept');
    expect(headers.host).toBe(new URL(upstream.origin).host);
  });

  it('passes redirects back without following them: into the prefix rewritten, elsewhere unchanged', async () => {
    const before = forbidden.hits();
    const inside = await fetch(`${base}/api/redirect-inside`, { redirect: 'manual' });
    expect(inside.status).toBe(302);
    expect(inside.headers.get('location')).toBe('/api/orders/7?from=redirect');
    const away = await fetch(`${base}/api/redirect-away`, { redirect: 'manual' });
    expect(away.status).toBe(302);
    expect(away.headers.get('location')).toBe(`${forbidden.origin}/steal`);
    expect(forbidden.hits()).toBe(before);
  });

  it('shows an upstream 503 as it is, without retrying it', async () => {
    const before = upstream.seen.filter((seen) => seen.url === '/v1/unavailable').length;
    const answer = await fetch(`${base}/api/unavailable`);
    expect(answer.status).toBe(503);
    expect(upstream.seen.filter((seen) => seen.url === '/v1/unavailable').length).toBe(before + 1);
  });

  it('serves spec.json itself, with live reload and calls under its own /api', async () => {
    const spec = (await (await fetch(`${base}/spec.json`)).json()) as {
      api: { base: string };
      dev: { reload: boolean };
    };
    expect(spec.api.base).toBe('/api');
    expect(spec.dev.reload).toBe(true);
  });

  it('cannot be used to reach another host or a path outside the prefix', async () => {
    const host = new URL(forbidden.origin).host;
    const attempts: Array<{ request: string; status?: number }> = [
      // Absolute-form target naming the other host.
      { request: `GET http://${host}/api/steal HTTP/1.1\r\nHost: ${host}\r\n`, status: 400 },
      { request: `GET ${forbidden.origin}/steal HTTP/1.1\r\nHost: ${host}\r\n`, status: 400 },
      // Authority-form, as a forward proxy would take it.
      { request: `CONNECT ${host} HTTP/1.1\r\nHost: ${host}\r\n` },
      // Dot segments, raw and encoded, and encoded slashes.
      { request: 'GET /api/../../steal HTTP/1.1\r\nHost: x\r\n', status: 400 },
      { request: 'GET /api/%2e%2e/%2E%2E/steal HTTP/1.1\r\nHost: x\r\n', status: 400 },
      { request: 'GET /api/..%2f..%2fsteal HTTP/1.1\r\nHost: x\r\n', status: 400 },
      { request: `GET /api/%2F%2F${host}/steal HTTP/1.1\r\nHost: x\r\n`, status: 400 },
      { request: 'GET /api/%5c..%5csteal HTTP/1.1\r\nHost: x\r\n', status: 400 },
      // An empty segment that would make the upstream path protocol-relative.
      { request: `GET /api//${host}/steal HTTP/1.1\r\nHost: x\r\n`, status: 400 },
      // The prefix spelled with an escape, which the router decodes but the proxy does not accept.
      { request: 'GET /%61pi/steal HTTP/1.1\r\nHost: x\r\n', status: 400 },
      // Host and forwarding headers naming the other host: the upstream is fixed.
      { request: `GET /api/orders HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Host: ${host}\r\n`, status: 200 },
      // A userinfo-looking segment stays a path on the upstream.
      { request: `GET /api/@${host}/steal HTTP/1.1\r\nHost: x\r\n`, status: 200 },
    ];
    for (const attempt of attempts) {
      const answer = await raw(base, `${attempt.request}Connection: close\r\n\r\n`);
      if (attempt.status !== undefined) expect(answer.status, attempt.request).toBe(attempt.status);
      expect(answer.text, attempt.request).not.toContain('STOLEN');
    }
    expect(forbidden.hits()).toBe(0);
    for (const seen of upstream.seen) {
      expect(seen.url === '/v1' || seen.url.startsWith('/v1/'), seen.url).toBe(true);
      expect(seen.headers.host).toBe(new URL(upstream.origin).host);
      expect(seen.headers['x-forwarded-host']).toBeUndefined();
    }
  });
});

// Regression (issue 39): a document whose server URL is relative (`/api/v1`) made the client call
// `/api/v1/config`, which the proxy forwarded as `/v1/config`. --api URL is the API's base, whatever the
// document's servers say: relative, templated, absolute, or a Swagger 2 basePath read as one of these.
describe('the dev proxy whatever base URL the document names', () => {
  const bases = ['/api/v1', '/{version}', 'https://api.example.com/v2', '/'];
  for (const baseUrl of bases) {
    it(`sends the client's calls to --api for a base URL of ${baseUrl}`, async () => {
      const upstream = await startUpstream(() => 'http://127.0.0.1:9');
      const target = parseProxyTarget(`${upstream.origin}/v1`);
      if (!target.ok) throw new Error(target.message);
      const withBase = {
        ...model,
        calls: model.calls.shown ? { ...model.calls, baseUrl } : model.calls,
      };
      const started = await startDevServer({
        model: withBase,
        issues: [],
        clientDir: fakeRuntime(),
        api: { kind: 'proxy', target: target.target },
        port: 0,
        log: () => undefined,
      });
      if (!started.ok) throw new Error(started.message);
      try {
        const spec = (await (await fetch(`${started.server.url}spec.json`)).json()) as {
          api: { base: string };
        };
        expect(spec.api.base).toBe('/api');
        const answer = await fetch(`${started.server.url.replace(/\/$/, '')}${spec.api.base}/orders?page=1`);
        expect(((await answer.json()) as { url: string }).url).toBe('/v1/orders?page=1');
      } finally {
        await started.server.close();
        await upstream.app.close();
      }
    });
  }
});

describe('the dev proxy when the upstream does not answer', () => {
  let dev: DevServer;
  beforeAll(async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = Fastify();
    const address = await probe.listen({ host: '127.0.0.1', port: 0 });
    await probe.close();
    const target = parseProxyTarget(`${address}/v1`);
    if (!target.ok) throw new Error(target.message);
    const started = await startDevServer({
      model,
      issues: [],
      clientDir: fakeRuntime(),
      api: { kind: 'proxy', target: target.target },
      port: 0,
      log: () => undefined,
    });
    if (!started.ok) throw new Error(started.message);
    dev = started.server;
  });
  afterAll(async () => {
    await dev?.close();
  });

  it('answers 502 with an RFC 9457 problem', async () => {
    const answer = await fetch(`${dev.url}api/orders`);
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(await answer.json()).toMatchObject({
      type: '/problems/bad-gateway',
      title: 'Bad gateway',
      status: 502,
      code: 'BAD_GATEWAY',
      detail: expect.stringContaining('connection was refused'),
    });
  });
});

describe('proxy helpers', () => {
  const target: ProxyTarget = { origin: 'https://api.example.com', path: '/v1' };

  it('parseProxyTarget takes an http(s) URL with a prefix, and refuses anything else', () => {
    expect(parseProxyTarget('https://api.example.com/v1/')).toEqual({ ok: true, target });
    expect(parseProxyTarget('http://127.0.0.1:8080')).toEqual({
      ok: true,
      target: { origin: 'http://127.0.0.1:8080', path: '' },
    });
    for (const url of [
      'api.example.com',
      'ftp://api.example.com',
      'https://user:secret@api.example.com',
      'https://api.example.com/v1?key=1',
      'https://api.example.com/v1#x',
    ]) {
      expect(parseProxyTarget(url).ok, url).toBe(false);
    }
  });

  it('proxiedPath maps the prefix and keeps the query as sent', () => {
    expect(proxiedPath('/api/orders/5?a=1&b=%2F', target)).toEqual({
      ok: true,
      path: '/v1/orders/5',
      query: 'a=1&b=%2F',
    });
    expect(proxiedPath('/api', target)).toEqual({ ok: true, path: '/v1', query: '' });
    expect(proxiedPath('/api/', target)).toEqual({ ok: true, path: '/v1/', query: '' });
    expect(proxiedPath('/api/orders', { origin: target.origin, path: '' })).toEqual({
      ok: true,
      path: '/orders',
      query: '',
    });
    expect(proxiedPath('/api', { origin: target.origin, path: '' })).toEqual({
      ok: true,
      path: '/',
      query: '',
    });
  });

  it.each([
    'http://evil.example/api/x',
    '//evil.example/api/x',
    '/apix/orders',
    '/other',
    '/api/../x',
    '/api/./x',
    '/api/%2e%2E/x',
    '/api/%2e/x',
    '/api/a%2fb',
    '/api/a%5Cb',
    '/api/a\\b',
    '/api//evil.example',
    '/api/a//b',
    '/api/%E0%A4%A',
    '/api/a%00b',
  ])('proxiedPath refuses %s', (url) => {
    const mapped = proxiedPath(url, target);
    expect(mapped.ok).toBe(false);
    if (!mapped.ok) expect(mapped.problem.status).toBe(400);
  });

  it('rewriteSetCookie drops Domain and moves the upstream path under /api', () => {
    expect(rewriteSetCookie('sid=1; Domain=api.example.com; Path=/v1; Secure; HttpOnly', target)).toBe(
      'sid=1; Path=/api; Secure; HttpOnly',
    );
    expect(rewriteSetCookie('a=b; path=/v1/orders; SameSite=Lax', target)).toBe(
      'a=b; Path=/api/orders; SameSite=Lax',
    );
    expect(rewriteSetCookie('a=b; Path=/elsewhere', target)).toBe('a=b; Path=/elsewhere');
    expect(rewriteSetCookie('a=b', target)).toBe('a=b');
  });

  it('rewriteLocation points redirects into the prefix at the proxy, and leaves others alone', () => {
    expect(rewriteLocation('https://api.example.com/v1/orders/7?x=1', target)).toBe('/api/orders/7?x=1');
    expect(rewriteLocation('/v1/orders', target)).toBe('/api/orders');
    expect(rewriteLocation('https://api.example.com/login', target)).toBe('https://api.example.com/login');
    expect(rewriteLocation('https://evil.example/v1/x', target)).toBe('https://evil.example/v1/x');
  });

  it('proxyRequestHeaders and proxyResponseHeaders drop connection-level headers', () => {
    const sent = proxyRequestHeaders(
      {
        host: 'dev.local',
        connection: 'keep-alive, x-secret',
        'x-secret': '1',
        te: 'trailers',
        accept: '*/*',
      },
      target,
    );
    expect(sent).toEqual({ host: 'api.example.com', accept: '*/*' });
    const back = proxyResponseHeaders(
      { 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked', 'content-type': 'application/json' },
      target,
    );
    expect(back).toEqual({ 'content-type': 'application/json' });
  });
});
