import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './ninefold';

/** Screenshots are kept as test artifacts (gitignored) so people can look at each screen kind. */
export const ARTIFACTS = join(ROOT, 'e2e/artifacts');

/**
 * The whole page by default. Chromium takes a whole page by resizing the window (to 1 by 1 px, then back),
 * which a page sees: its phone layout's media query matches for a moment, and that layout's code is
 * fetched. `{ fullPage: false }` takes the window alone, for a page that must fetch nothing (offline).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
