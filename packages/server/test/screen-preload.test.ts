import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCREEN_KINDS } from '@ninefold/model';
import { ensureRuntime } from '@ninefold/web/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The runtime's own set, which decides what its screens wait for: read from its source, as the server
// does not depend on the web package.
import { FIRST_STYLESHEET_KINDS as RUNTIME_FIRST_STYLESHEET_KINDS } from '../../web/src/screens/first-stylesheet';
import { buildApp } from '../src/app';
import { registerClient } from '../src/client';
import { FIRST_STYLESHEET_KINDS, SCREEN_MODULES, screenPreloads } from '../src/screen-preload';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';

const model = exampleModel();
const INDEX = '<!doctype html><html><head><base href="/" /></head><body></body></html>';

/** A built runtime in miniature: an entry, a chunk it shares with the list screen, and the list's own. */
function runtimeWithManifest(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-preload-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  const manifest = {
    'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-2.js'] },
    '_shared-2.js': { file: 'assets/shared-2.js' },
    '_table-3.js': { file: 'assets/table-3.js', imports: ['_shared-2.js'] },
    'src/screens/ListScreen.tsx': {
      file: 'assets/ListScreen-4.js',
      imports: ['_table-3.js', '_shared-2.js'],
    },
    'src/screens/DashboardScreen.tsx': { file: 'assets/DashboardScreen-5.js', imports: ['_shared-2.js'] },
    'src/screens/DetailScreen.tsx': { file: 'assets/DetailScreen-6.js', imports: ['_shared-2.js'] },
    '/build/src/app/mantine-later.css': { file: 'assets/mantine-later-7.css' },
  };
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

const HTML = { accept: 'text/html' };
const links = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('the page preloads the code of the screen at its address', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    app = await buildApp({ model, store });
    registerClient(app, { dir: runtimeWithManifest(), model });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('names a list screen’s chunks that the entry does not already bring, in the head', async () => {
    const answer = await app.inject({ method: 'GET', url: '/orders?page=2', headers: HTML });
    expect(answer.statusCode).toBe(200);
    expect(links(answer.body)).toEqual(['./assets/ListScreen-4.js', './assets/table-3.js']);
    expect(answer.body.indexOf('modulepreload')).toBeLessThan(answer.body.indexOf('</head>'));
  });

  it('names the home screen’s at /, and nothing at an address of no screen or of the client’s own pages', async () => {
    expect(links((await app.inject({ method: 'GET', url: '/', headers: HTML })).body)).toEqual([
      './assets/DashboardScreen-5.js',
    ]);
    expect((await app.inject({ method: 'GET', url: '/nowhere/at/all', headers: HTML })).body).toBe(INDEX);
    expect((await app.inject({ method: 'GET', url: '/_/about', headers: HTML })).body).toBe(INDEX);
  });

  it('preloads the later stylesheet for a screen that waits for it, and not for a list or a dashboard', async () => {
    const styles = (html: string) =>
      [...html.matchAll(/<link rel="preload" as="style" href="([^"]+)">/g)].map((m) => m[1]);
    const detail = (await app.inject({ method: 'GET', url: '/orders/1', headers: HTML })).body;
    expect(links(detail)).toEqual(['./assets/DetailScreen-6.js']);
    expect(styles(detail)).toEqual(['./assets/mantine-later-7.css']);
    expect(styles((await app.inject({ method: 'GET', url: '/orders', headers: HTML })).body)).toEqual([]);
    expect(styles((await app.inject({ method: 'GET', url: '/', headers: HTML })).body)).toEqual([]);
  });

  it('preloads the later stylesheet for the very kinds of screen that wait for it in the runtime', () => {
    expect([...FIRST_STYLESHEET_KINDS].sort()).toEqual([...RUNTIME_FIRST_STYLESHEET_KINDS].sort());
  });

  it('adds nothing for a build without a manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-preload-'));
    expect(screenPreloads(dir, model)('/orders')).toBe('');
  });
});

describe('the real runtime’s manifest', () => {
  it('has the module of every kind of screen, so that each can be preloaded', async () => {
    const dir = await ensureRuntime();
    const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const kind of SCREEN_KINDS) expect(manifest, kind).toHaveProperty([SCREEN_MODULES[kind]]);
  });

  it('names the later stylesheet, so that the screens that wait for it get it preloaded', async () => {
    const dir = await ensureRuntime();
    const model = exampleModel();
    const detail = model.screens.shown
      ? model.screens.items.find((screen) => screen.kind === 'detail')
      : undefined;
    expect(detail).toBeDefined();
    const path = (detail?.route ?? '').replace(/:\w+/g, '1');
    expect(screenPreloads(dir, model)(path)).toMatch(
      /<link rel="preload" as="style" href="\.\/assets\/mantine-later-[\w-]+\.css">/,
    );
  });
});
