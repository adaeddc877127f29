import { gzipSync } from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';

export interface Fetched {
  kib: number;
  files: Array<{ url: string; gzipBytes: number }>;
}

/**
 * Loads `url` in `page` and sums the scripts it fetched until its network was quiet. The bodies are read
 * again from the server (asset names carry a hash of their content, so the bytes are the same): a body
 * kept by the browser may be gone by the time it is asked for.
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
      const body = Buffer.from(await answer.arrayBuffer());
      return { url: new URL(script).pathname, gzipBytes: gzipSync(body, { level: 9 }).length };
    }),
  );
  const kib = files.reduce((sum, file) => sum + file.gzipBytes, 0) / 1024;
  return { kib: Math.round(kib * 10) / 10, files };
}
