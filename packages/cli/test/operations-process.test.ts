// `ninefold serve` as an operator runs it, as a real process: JSON request logs on standard output,
// metrics on a port of their own, probes, and a stop that lets requests in flight finish, closes the
// event streams, and is bounded when a client never finishes.
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { pointsSaid } from '../../../test/support/points-said';
import { type Running, start, tempSpec } from './support/serve-process';

const SPEC = pointsSaid(`title: Field notes
entities:
  Note:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
`);
const spec = tempSpec(SPEC);
const started: Running[] = [];
afterAll(() => {
  for (const server of started) server.child.kill('SIGKILL');
});

async function serve(args: string[]): Promise<Running> {
  const server = await start([spec, '--db', ':memory:', '--no-client', ...args]);
  if (!('url' in server)) throw new Error(`serve did not start:\n${server.stdout}\n${server.stderr}`);
  started.push(server);
  return server;
}

/** A POST whose body is sent in two parts: the second only when the test says. */
function slowPost(url: string, body: string) {
  const half = Math.floor(body.length / 2);
  let finish: () => void = () => {};
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    sent.on('error', reject);
    sent.write(body.slice(0, half));
    finish = () => sent.end(body.slice(half));
  });
  return { answered, finish: () => finish() };
}

/** The request lines the server has written, waited for until one meets `wanted` (at most 5 s). */
async function logLines(server: Running, wanted: (entry: Record<string, unknown>) => boolean) {
  const read = () =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  for (let waited = 0; waited < 5000 && !read().some(wanted); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return read();
}

const exitWithin = async (server: Running, ms: number) => {
  const began = Date.now();
  const code = await Promise.race([
    server.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms)),
  ]);
  return { code, ms: Date.now() - began };
};

describe('ninefold serve for operators', () => {
  it('logs each request as a JSON line, serves metrics on their own port, and answers its probes', async () => {
    const server = await serve(['--log-level', 'info', '--metrics-port', '0']);
    const metricsUrl = /(http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(server.stdout())?.[1];
    expect(metricsUrl, server.stdout()).toBeDefined();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const created = await fetch(`${server.url}/api/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'from-the-proxy-1' },
      body: JSON.stringify({ title: 'Kestrel at dawn' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('from-the-proxy-1');
    // An event stream open while the metrics are read.
    const events = await fetch(`${server.url}/api/_events`);
    expect(events.status).toBe(200);
    const streamEnded = events.text();
    const metrics = await (await fetch(metricsUrl as string)).text();
    expect(metrics).toMatch(/^ninefold_event_streams 1$/m);
    expect(metrics).toMatch(
      /^ninefold_http_requests_total\{method="POST",route="\/api\/notes",status="201"\} 1$/m,
    );
    // The API's own port does not serve them without a token.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    // Written in chunks, and within half a second when the server is quiet.
    const lines = await logLines(server, (entry) => entry.requestId === 'from-the-proxy-1');
    expect(lines).toContainEqual(
      expect.objectContaining({
        requestId: 'from-the-proxy-1',
        method: 'POST',
        route: '/api/notes',
        status: 201,
      }),
    );
    expect(server.stdout()).not.toContain('Kestrel');
    // The last line, still held in the chunk, is written at the stop.
    await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'the-last-before-stopping' } });
    server.child.kill('SIGTERM');
    await streamEnded;
    expect((await exitWithin(server, 15_000)).code).toBe(0);
    expect(server.stdout()).toContain('"requestId":"the-last-before-stopping"');
  });

  it('lets a request in flight finish on SIGTERM, refuses new ones, closes its streams, and exits cleanly', async () => {
    const server = await serve(['--log-level', 'silent']);
    const events = await fetch(`${server.url}/api/_events`);
    const streamEnded = events.text().then(() => 'ended');
    const upload = slowPost(`${server.url}/api/notes`, JSON.stringify({ title: 'Written while stopping' }));
    // The request has reached the server (its headers are read) before the stop.
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A new request is no longer taken.
    const late = await fetch(`${server.url}/api/notes`).then(
      (answer) => answer.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);
    upload.finish();
    const answer = await upload.answered;
    expect(answer.status, answer.body).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ title: 'Written while stopping' });
    expect(await streamEnded).toBe('ended');
    expect((await exitWithin(server, 15_000)).code).toBe(0);
    expect(server.stderr()).toContain('stopped.');
  });

  it('bounds the stop: a client that never finishes is cut off after --drain-seconds', async () => {
    const server = await serve(['--drain-seconds', '1']);
    const upload = slowPost(`${server.url}/api/notes`, JSON.stringify({ title: 'Never finished' }));
    upload.answered.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    const stopped = await exitWithin(server, 10_000);
    expect(stopped.code).toBe(0);
    // One second of grace, then the database closed: well before a supervisor's SIGKILL.
    expect(stopped.ms).toBeLessThan(8_000);
    expect(stopped.ms).toBeGreaterThanOrEqual(900);
  });

  it('refuses a log level it does not know, and a metrics token too short to guess at', async () => {
    const wrongLevel = await start([spec, '--log-level', 'chatty']);
    expect('failed' in wrongLevel && wrongLevel.failed).toBe(2);
    expect('failed' in wrongLevel && wrongLevel.stderr).toContain(
      '--log-level is one of silent, fatal, error, warn, info, debug, trace, not "chatty"',
    );
    const shortToken = await start([spec], { NINEFOLD_METRICS_TOKEN: 'short' });
    expect('failed' in shortToken && shortToken.failed).toBe(2);
    expect('failed' in shortToken && shortToken.stderr).toContain('at least 16 characters');
  });
});
