import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntime } from '@ninefold/web/runtime';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dev } from '../src/commands/dev';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every point said; an item holds a maker that is not embedded, the one warning, so the page has an issue to show. */
const TINY = `title: Tiny Shop
product: not shown
screens: not shown
states: not shown
validation: not shown
roles: not shown
calls: not shown
errors: not shown
constants: not shown
entities:
  Item:
    fields:
      name: { kind: text }
      maker: { kind: object, entity: Maker, label: Made by }
  Maker:
    fields:
      name: { kind: text }
`;
const WITH_CRATES = `${TINY.replace('title: Tiny Shop', 'title: Tiny Store')}  Crate:
    fields:
      label: { kind: text }
`;
const BROKEN = TINY.replace('title: Tiny Shop', 'title: Tiny Broken').replace('kind: text', 'kind: txet');

async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface Running {
  url: string;
  file: string;
  terminal: ReturnType<typeof bufferTerminal>;
  stop(signal?: string): Promise<number>;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `ninefold dev` in this process, on a free port, with its spec and database in a temporary directory. */
async function startDev(text = TINY, extra: string[] = []): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-dev-'));
  const file = join(dir, 'tiny.yaml');
  writeFileSync(file, text);
  const terminal = bufferTerminal();
  const signals = new EventEmitter();
  const done = dev([file, '--port', '0', '--db', join(dir, 'dev.db'), ...extra], terminal, signals);
  let code: number | undefined;
  void done.then((exit) => {
    code = exit;
  });
  const url = await until(
    () => {
      if (code !== undefined) throw new Error(`dev exited with ${code}: ${terminal.stderr}`);
      return /http:\/\/127\.0\.0\.1:\d+\//.exec(terminal.stdout)?.[0];
    },
    'the URL',
    60_000,
  );
  const stop = async (signal = 'SIGTERM') => {
    signals.emit(signal);
    return done;
  };
  cleanups.push(() => stop());
  return { url, file, terminal, stop };
}

/** Listens on the live-reload stream like a page does, and records the events it gets. */
function listen(url: string) {
  const events: string[] = [];
  let ended = false;
  let opened = false;
  let buffer = '';
  const request = get(`${url}_ninefold/events`, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      opened = true;
      buffer += chunk;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const name = /^event: (.+)$/m.exec(block)?.[1];
        if (name) events.push(name);
      }
    });
    response.on('end', () => {
      ended = true;
    });
    response.on('close', () => {
      ended = true;
    });
  });
  request.on('error', () => {
    ended = true;
  });
  cleanups.push(async () => request.destroy());
  return {
    events,
    opened: () => opened,
    ended: () => ended,
    /** Waits for one more `reload` than there were when called. */
    nextReload: () => {
      const before = events.filter((event) => event === 'reload').length;
      return until(
        () => events.filter((event) => event === 'reload').length > before || undefined,
        'a reload event',
      );
    },
  };
}

interface SpecJson {
  model: { title?: string };
  api: { base: string; calls: Array<{ path: string }> };
  dev: {
    reload: boolean;
    issues: Array<{ severity: string; code: string; message: string; source?: string }>;
  };
}
async function specJson(url: string): Promise<SpecJson> {
  const answer = await fetch(`${url}spec.json`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  return (await answer.json()) as SpecJson;
}

/** Waits until the page's stream is open (its first bytes came), so that no event is sent before. */
async function listening(url: string) {
  const stream = listen(url);
  await until(() => stream.opened() || undefined, 'the event stream to open');
  return stream;
}

beforeAll(async () => {
  await ensureRuntime();
}, 300_000);

describe('ninefold dev (in process, port 0)', () => {
  it('serves the client, the prototype API, and spec.json with live reload and the check issues', async () => {
    const running = await startDev();
    expect(running.terminal.stdout).toContain(
      'Ninefold dev for Tiny Shop: the client and the prototype API on SQLite',
    );
    expect(running.terminal.stdout).toMatch(/^ {2}http:\/\/127\.0\.0\.1:\d+\/ {2}\(the client\)$/m);

    const spec = await specJson(running.url);
    expect(spec.model.title).toBe('Tiny Shop');
    expect(spec.api.base).toBe('/api');
    expect(spec.dev.reload).toBe(true);
    expect(spec.dev.issues).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'kind-mismatch',
        source: `${running.file}:14:38`,
      }),
    ]);

    const page = await fetch(`${running.url}items/3`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(await page.text()).toContain('<div id="root">');

    const created = await fetch(`${running.url}api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'rope' }),
    });
    expect(created.status).toBe(201);
  });

  it('reloads open pages when the specification changes, and serves the new model on the same URL', async () => {
    const running = await startDev();
    await fetch(`${running.url}api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'rope' }),
    });
    expect((await fetch(`${running.url}api/crates`)).status).toBe(404);
    const page = await listening(running.url);

    const reloaded = page.nextReload();
    writeFileSync(running.file, WITH_CRATES);
    await reloaded;

    const spec = await specJson(running.url);
    expect(spec.model.title).toBe('Tiny Store');
    expect(spec.api.calls.map((call) => call.path)).toContain('/crates');
    const crates = await fetch(`${running.url}api/crates`);
    expect(crates.status).toBe(200);
    // The same database: records made before the change are still there.
    const items = (await (await fetch(`${running.url}api/items`)).json()) as { total: number };
    expect(items.total).toBe(1);
    expect(running.terminal.stderr).toContain('tiny.yaml changed');
    expect(running.terminal.stderr).toContain('Serving the new model.');
  });

  it('keeps the last good model while the specification has errors, and shows them', async () => {
    const running = await startDev();
    const page = await listening(running.url);

    let reloaded = page.nextReload();
    writeFileSync(running.file, BROKEN);
    await reloaded;

    const spec = await specJson(running.url);
    expect(spec.model.title).toBe('Tiny Shop');
    expect(spec.dev.issues).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        code: 'invalid-value',
        source: expect.stringMatching(/tiny\.yaml:13:\d+$/),
      }),
    );
    // Printed in the terminal the way `ninefold check` prints it.
    expect(running.terminal.stderr).toMatch(/tiny\.yaml:13:\d+ {2}error {3}.*"txet" is not a known kind/);
    expect(running.terminal.stderr).toContain('the last good model keeps running');
    expect((await fetch(`${running.url}api/items`)).status).toBe(200);

    reloaded = page.nextReload();
    writeFileSync(running.file, WITH_CRATES);
    await reloaded;
    const fixed = await specJson(running.url);
    expect(fixed.model.title).toBe('Tiny Store');
    expect(fixed.dev.issues.every((issue) => issue.severity === 'warning')).toBe(true);
  });

  it('notices a save that replaces the file, as many editors do', async () => {
    const running = await startDev();
    const page = await listening(running.url);
    const reloaded = page.nextReload();
    const temporary = `${running.file}.tmp`;
    writeFileSync(temporary, WITH_CRATES);
    renameSync(temporary, running.file);
    await reloaded;
    expect((await specJson(running.url)).model.title).toBe('Tiny Store');

    // And the save after that one too: the watch survived the replacement.
    const again = page.nextReload();
    writeFileSync(temporary, WITH_CRATES.replace('Tiny Store', 'Tiny Depot'));
    renameSync(temporary, running.file);
    await again;
    expect((await specJson(running.url)).model.title).toBe('Tiny Depot');
  });

  it('keeps serving the last model when the change would drop stored data, and says why in the page', async () => {
    const running = await startDev(WITH_CRATES);
    const page = await listening(running.url);
    const reloaded = page.nextReload();
    writeFileSync(running.file, TINY);
    await reloaded;
    const spec = await specJson(running.url);
    expect(spec.model.title).toBe('Tiny Store');
    expect(spec.dev.issues).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        code: 'not-applied',
        message: expect.stringContaining('Crate'),
      }),
    );
    expect((await fetch(`${running.url}api/crates`)).status).toBe(200);
    expect(running.terminal.stderr).toContain('The new model is not served');
  });

  it('stops cleanly on SIGTERM: the event streams end and the port closes', async () => {
    const running = await startDev();
    const page = await listening(running.url);
    expect(await running.stop('SIGTERM')).toBe(0);
    await until(() => page.ended() || undefined, 'the stream to end');
    await expect(fetch(`${running.url}healthz`)).rejects.toThrow();
    expect(running.terminal.stderr).toContain('stopped.');
  });

  it('refuses wrong usage with exit 2 and a specification with errors with exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-dev-'));
    const file = join(dir, 'tiny.yaml');
    writeFileSync(file, TINY);
    const run = async (...args: string[]) => {
      const terminal = bufferTerminal();
      const code = await main(['dev', ...args], terminal);
      return { code, ...terminal };
    };
    const both = await run(file, '--api', 'http://127.0.0.1:9/v1', '--db', join(dir, 'x.db'));
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--db concern the prototype API');
    const notHttp = await run(file, '--api', 'file:///etc/passwd');
    expect(notHttp.code).toBe(2);
    expect(notHttp.stderr).toContain('--api');
    const badPort = await run(file, '--port', 'eighty');
    expect(badPort.code).toBe(2);
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, BROKEN);
    const errors = await run(broken, '--port', '0');
    expect(errors.code).toBe(1);
    expect(errors.stderr).toMatch(/broken\.yaml:13:\d+ {2}error/);
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: ninefold dev SPEC');
  });
});

describe('ninefold dev (real process)', () => {
  it('prints its URL, proxies to --api, and exits 0 on SIGINT', async () => {
    // The real process's API: a second dev server would do, but serve is what people run behind it.
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-dev-'));
    const file = join(dir, 'tiny.yaml');
    writeFileSync(file, TINY);
    const upstream = await startDev();
    await fetch(`${upstream.url}api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'through the proxy' }),
    });
    const child = spawn(
      process.execPath,
      [join(root, 'bin/ninefold.js'), 'dev', file, '--port', '0', '--api', `${upstream.url}api`],
      { cwd: root, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\//.exec(output)?.[0], 'the URL', 60_000);
    expect(output).toContain(`a proxy to ${upstream.url}api`);
    const items = (await (await fetch(`${url}api/items`)).json()) as { items: Array<{ name: string }> };
    expect(items.items.map((item) => item.name)).toEqual(['through the proxy']);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('stopped.');
  });
});
