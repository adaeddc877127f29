import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './ninefold';

/** Screenshots are kept as test artifacts (gitignored) so people can look at each screen kind. */
export const ARTIFACTS = join(ROOT, 'e2e/artifacts');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
