import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

type RuntimeModule = typeof import('@ninefold/web/runtime');

/**
 * A copy of the web package and the shared rules in a temporary tree, as a fresh clone has them: no
 * built runtime. The real packages/web/dist is left alone for the other tests and for people.
 */
function freshTree(): { web: string; load: () => Promise<RuntimeModule> } {
  const tree = mkdtempSync(join(tmpdir(), 'ninefold-runtime-'));
  const web = join(tree, 'packages/web');
  mkdirSync(web, { recursive: true });
  for (const name of [
    'src',
    'runtime',
    'index.html',
    'playground.html',
    'vite.config.ts',
    'package.json',
    'tsconfig.json',
  ])
    cpSync(join(root, 'packages/web', name), join(web, name), { recursive: true });
  cpSync(join(root, 'packages/model/src'), join(tree, 'packages/model/src'), { recursive: true });
  // The playground bundles the published schema and two examples, by their paths in the repository.
  for (const name of ['schema/ninefold.schema.json', 'examples/shop.md', 'examples/empty.md'])
    cpSync(join(root, name), join(tree, name), { recursive: true });
  cpSync(join(root, 'tsconfig.base.json'), join(tree, 'tsconfig.base.json'));
  symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir');
  return {
    web,
    load: () => import(pathToFileURL(join(web, 'runtime/index.ts')).href) as Promise<RuntimeModule>,
  };
}

describe('ensureRuntime in a fresh tree', () => {
  let tree: ReturnType<typeof freshTree>;
  let runtime: RuntimeModule;
  beforeAll(async () => {
    tree = freshTree();
    runtime = await tree.load();
  });

  it('builds once for callers that arrive together, then finds the build current', async () => {
    const lines: string[] = [];
    const dir = runtime.runtimeDir();
    expect(dir).toBe(join(tree.web, 'dist'));
    expect(existsSync(dir)).toBe(false);

    const [first, second] = await Promise.all([
      runtime.ensureRuntime({ log: (line) => lines.push(`a ${line}`) }),
      runtime.ensureRuntime({ log: (line) => lines.push(`b ${line}`) }),
    ]);
    expect(first).toBe(dir);
    expect(second).toBe(dir);
    // One build, announced once; the other caller waited for it.
    expect(lines.filter((line) => line.includes('building the web client (first run only)…'))).toHaveLength(
      1,
    );
    expect(lines.filter((line) => /built in \d+\.\d s/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('waiting for another process'))).toHaveLength(1);

    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script[^>]*src="\.\/(assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(existsSync(join(dir, script ?? ''))).toBe(true);
    // A production bundle, whatever NODE_ENV the caller has (Vitest sets "test"): only React's production
    // build shortens its errors.
    const bundle = readdirSync(join(dir, 'assets'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(dir, 'assets', name), 'utf8'))
      .join('\n');
    expect(bundle).toContain('Minified React error');
    // The work area is gone: nothing is left locked.
    expect(existsSync(join(tree.web, '.ninefold-build/dist'))).toBe(false);

    const again: string[] = [];
    await runtime.ensureRuntime({ log: (line) => again.push(line) });
    expect(again).toEqual([]);
  }, 300_000);

  it('builds again when a source changes, and clears a lock left by a build that died', async () => {
    const dir = runtime.runtimeDir();
    const before = readFileSync(join(dir, '.ninefold-sources'), 'utf8');
    const source = join(tree.web, 'src/main.tsx');
    const later = new Date(Date.now() + 5_000);
    utimesSync(source, later, later);

    // A lock whose owner is a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(join(tree.web, '.ninefold-build/dist'), { recursive: true });
    writeFileSync(
      join(tree.web, '.ninefold-build/dist/owner.json'),
      JSON.stringify({ pid: dead, host: hostname(), started: new Date().toISOString() }),
    );

    const lines: string[] = [];
    await runtime.ensureRuntime({ log: (line) => lines.push(line) });
    expect(lines).toEqual([
      'cleared the lock of a build of the web client that did not finish',
      'building the web client (its sources changed)…',
      expect.stringMatching(/^ {2}built in \d+\.\d s$/),
    ]);
    expect(existsSync(join(tree.web, '.ninefold-build/dist'))).toBe(false);
    expect(readFileSync(join(dir, '.ninefold-sources'), 'utf8')).not.toBe(before);
    expect(existsSync(join(dir, 'index.html'))).toBe(true);
    // Every compressed copy, most of them taken from the build it replaced, is its own file's bytes.
    const assets = join(dir, 'assets');
    const compressed = readdirSync(assets).filter(
      (name) => /\.(?:js|css)$/.test(name) && existsSync(join(assets, `${name}.br`)),
    );
    expect(compressed.length).toBeGreaterThan(10);
    for (const name of compressed) {
      const bytes = readFileSync(join(assets, name));
      expect(brotliDecompressSync(readFileSync(join(assets, `${name}.br`))).equals(bytes), name).toBe(true);
      expect(gunzipSync(readFileSync(join(assets, `${name}.gz`))).equals(bytes), name).toBe(true);
    }
  }, 300_000);
  // `ninefold dev` stopped in the middle of a rebuild waited for the bundler, past the 15 s a test gives
  // a process to stop on a loaded machine.
  it('kills a build under way when its signal aborts, and leaves neither a lock nor a half-built client', async () => {
    const dir = runtime.runtimeDir();
    const before = readFileSync(join(dir, '.ninefold-sources'), 'utf8');
    const later = new Date(Date.now() + 10_000);
    utimesSync(join(tree.web, 'src/main.tsx'), later, later);
    const stop = new AbortController();
    const lines: string[] = [];
    const building = runtime.ensureRuntime({
      log: (line) => {
        lines.push(line);
        // Aborted once the bundler runs.
        if (line.startsWith('building the web client')) setTimeout(() => stop.abort(), 200);
      },
      signal: stop.signal,
    });
    await expect(building).rejects.toThrow(/abort/i);
    expect(lines).toEqual(['building the web client (its sources changed)…']);
    expect(existsSync(join(tree.web, '.ninefold-build/dist'))).toBe(false);
    // The previous build stays whole and in place.
    expect(readFileSync(join(dir, '.ninefold-sources'), 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'index.html'))).toBe(true);
  }, 300_000);

  it('fails on sources that do not build, or goes on with the previous build when allowed', async () => {
    const dir = runtime.runtimeDir();
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    writeFileSync(join(tree.web, 'src/main.tsx'), 'export const broken = <div;\n');
    await expect(runtime.ensureRuntime()).rejects.toThrow(/the web client could not be built/);
    const lines: string[] = [];
    expect(await runtime.ensureRuntime({ log: (line) => lines.push(line), allowPrevious: true })).toBe(dir);
    expect(lines.at(-1)).toContain('serving the previous build of the web client instead.');
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toBe(page);
    expect(existsSync(join(tree.web, '.ninefold-build/dist'))).toBe(false);
  }, 300_000);
});
