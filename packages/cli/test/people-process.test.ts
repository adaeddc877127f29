// docs/prototype-api.md, *People*, read as an operator and tried on a real process: "A new deployment
// starts with one manager of people, made at start and printed once", "without --smtp, each link is
// printed on the terminal for you to pass on (never in the request log)", and "links point at
// --public-url". The choir of packages/server/test/fixtures/choir.yaml: its director manages people.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { printedPassword, root, start, tempSpec } from './support/serve-process';

const spec = tempSpec(readFileSync(join(root, 'packages/server/test/fixtures/choir.yaml'), 'utf8'));
const stops: Array<() => void> = [];
afterAll(() => {
  for (const stop of stops) stop();
});

describe('ninefold serve, managing people without a mail server', () => {
  it('prints an invitation link for the operator, at the public address, and never in the request log', async () => {
    const server = await start([
      spec,
      '--db',
      ':memory:',
      '--no-client',
      '--log-level',
      'info',
      '--user',
      'dana@choir.test:director',
      '--public-url',
      'https://choir.example',
    ]);
    if (!('url' in server)) throw new Error(`serve did not start:\n${server.stdout}\n${server.stderr}`);
    stops.push(() => server.child.kill('SIGKILL'));
    const password = await printedPassword(server, 'dana@choir.test');
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}/api${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      });
    const signedIn = await api('/auth/sign-in', {
      method: 'POST',
      body: JSON.stringify({ email: 'dana@choir.test', password }),
    });
    const { token } = (await signedIn.json()) as { token: string };
    const invited = await api('/_accounts', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ email: 'ada@choir.test', role: 'singer' }),
    });
    expect(invited.status).toBe(201);

    let link: RegExpExecArray | null = null;
    for (let waited = 0; waited < 5000 && !link; waited += 50) {
      link =
        /for ada@choir\.test \(no --smtp, so it is shown here\): (https:\/\/choir\.example\/_\/password#(\S+))/.exec(
          server.stderr(),
        );
      if (!link) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(link, server.stderr()).not.toBeNull();
    const linkToken = new URLSearchParams(link?.[2]).get('token') as string;
    const set = await api('/auth/password', {
      method: 'POST',
      body: JSON.stringify({ token: linkToken, password: 'sopranos soar high' }),
    });
    expect(set.status).toBe(204);
    const ada = await api('/auth/sign-in', {
      method: 'POST',
      body: JSON.stringify({ email: 'ada@choir.test', password: 'sopranos soar high' }),
    });
    expect(ada.status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // One JSON line per request on standard output: the calls are there, no token, link or password.
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(lines.map((line) => JSON.parse(line).route)).toEqual(
      expect.arrayContaining(['/api/_accounts', '/api/auth/password']),
    );
    // (The banner before them shows the director's password once, as it is meant to.)
    for (const secret of [linkToken, token, password, 'sopranos soar high']) {
      expect(lines.join('\n')).not.toContain(secret);
    }
    expect(server.stdout()).not.toContain(linkToken);
  });

  it('refuses an --smtp that is no SMTP URL, and a --public-url that is no address, before starting', async () => {
    for (const [flag, value, said] of [
      ['--smtp', 'mail.example.com', /--smtp takes a URL like smtp:\/\//],
      ['--smtp', 'https://mail.example.com', /an smtp:\/\/ or smtps:\/\/ URL/],
      ['--public-url', 'choir.example/app', /--public-url is the client's address/],
    ] as const) {
      const refused = await start([spec, '--db', ':memory:', '--no-client', flag, value]);
      expect('failed' in refused && refused.failed).toBe(2);
      expect('failed' in refused ? refused.stderr : '').toMatch(said);
    }
  });
});
