import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';

export interface Fetched {
  kib: number;
  files: Array<{ url: string; gzipBytes: number }>;
}

/**
 * A chunk with the content hashes of the chunks it names set to one value. Those names change with any
 * change elsewhere and compress differently each time: the same code measured 128,116 and 128,143 bytes
 * gzipped. The budgets are of the code, so that they fail on code that grew, not on another chunk's name.
 */
export function withoutHashes(code: string): string {
  return code.replace(/-[\w-]{8}\.(js|css)\b/g, '-00000000.$1');
}

/**
 * Loads `url` in `page` and sums the scripts it fetched until its network was quiet, gzipped (-9) with
 * the names of other chunks made alike (`withoutHashes`). The bodies are read again from the server
 * (asset names carry a hash of their content, so the bytes are the same): a body kept by the browser may
 * be gone by the time it is asked for.
 */
export async function scriptsOf(page: Page, url: string, usable: () => Promise<unknown>): Promise<Fetched> {
  const urls = new Set<string>();
  const listener = (request: Request) => {
    if (request.resourceType() === 'script') urls.add(request.url());
  };
  page.on('request', listener);
  try {
    await page.goto(url);
    await usable();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('request', listener);
  }
  const files = await Promise.all(
    [...urls].map(async (script) => {
      const answer = await fetch(script);
      expect(answer.ok, `${script} answered ${answer.status}`).toBe(true);
      const body = await answer.text();
      return { url: new URL(script).pathname, gzipBytes: gzipSync(withoutHashes(body), { level: 9 }).length };
    }),
  );
  const kib = files.reduce((sum, file) => sum + file.gzipBytes, 0) / 1024;
  return { kib: Math.round(kib * 10) / 10, files };
}

/**
 * The built files that only these source modules bring (their static imports and their lazy ones, less
 * what `besides` loads anyway), by path as the page fetches them (`/assets/…`): read from the runtime's
 * Vite manifest, so that a page's parts that load after its first screen can be told by name.
 */
export function filesOnlyFor(runtimeDir: string, modules: string[], besides: string[]): Set<string> {
  const manifest = JSON.parse(readFileSync(join(runtimeDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; dynamicImports?: string[] }
  >;
  const closure = (keys: string[], lazyToo: boolean): Set<string> => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(chunk.file)) return;
      seen.add(chunk.file);
      for (const next of [...(chunk.imports ?? []), ...(lazyToo ? (chunk.dynamicImports ?? []) : [])])
        visit(next);
    };
    for (const key of keys) visit(key);
    return seen;
  };
  const always = closure(besides, false);
  return new Set([...closure(modules, true)].filter((file) => !always.has(file)).map((file) => `/${file}`));
}
