import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, loadConfigFromFile, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedFileReady, savedModulesPlugin } from '../../web/runtime/saved-file';

// A save truncates the file, then writes it. `dev` once read a module in between (a busy machine held the
// writer) and the watcher took the write as the same change: the page ran an empty module, its extension
// silently gone, until the next save (e2e extension-dev, once in several CI runs).
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ninefold-saved-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Empties the file now and writes `text` into it after `ms`, as a held writer does. */
function saveSlowly(file: string, text: string, ms: number): Promise<void> {
  closeSync(openSync(file, 'w'));
  return new Promise((resolve) =>
    setTimeout(() => {
      writeFileSync(file, text);
      resolve();
    }, ms),
  );
}

describe('reading a file that is being saved', () => {
  it('waits for the write after the truncation, and reads a file with text at once', async () => {
    const file = join(dir, 'saving.ts');
    const saved = saveSlowly(file, 'export default 2;\n', 120);
    await savedFileReady(file);
    expect(readFileSync(file, 'utf8')).toBe('export default 2;\n');
    await saved;
    const started = Date.now();
    await savedFileReady(file);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('takes a file left empty as empty, after its wait', async () => {
    const file = join(dir, 'empty.ts');
    writeFileSync(file, '');
    const started = Date.now();
    await savedFileReady(file, { waitMs: 50 });
    // It gave the write its time, and then ended rather than waiting for one that never comes.
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("dev's bundler, asked for a module of the team's folder while it is being saved", () => {
  let server: ViteDevServer;
  const team = () => join(dir, 'team');
  beforeAll(async () => {
    mkdirSync(team(), { recursive: true });
    writeFileSync(join(team(), 'shop.ui.ts'), "export default { name: 'first' };\n");
    server = await createServer({
      configFile: false,
      root: team(),
      logLevel: 'silent',
      plugins: [savedModulesPlugin(join(team(), 'shop.ui.ts'))],
      server: { middlewareMode: true, hmr: false, watch: null },
      appType: 'custom',
      optimizeDeps: { noDiscovery: true, include: [] },
    });
  });
  afterAll(() => server?.close());

  it('serves the saved module, not the empty file between the truncation and the write', async () => {
    const file = join(team(), 'shop.ui.ts');
    const saved = saveSlowly(file, "export default { name: 'second' };\n", 120);
    const served = await server.transformRequest('/shop.ui.ts');
    await saved;
    expect(served?.code).toContain('name: "second"');
  });

  it("is in the client's own config, which dev serves with", async () => {
    const loaded = await loadConfigFromFile(
      { command: 'serve', mode: 'development' },
      fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url)),
      undefined,
      'silent',
    );
    const names = (loaded?.config.plugins ?? [])
      .flat()
      .map((plugin) => (plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : undefined));
    expect(names).toContain('ninefold-saved-modules');
  });
});
