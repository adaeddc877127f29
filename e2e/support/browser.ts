import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; Playwright's own browser download cannot work on these machines. */
export const CHROMIUM = process.env.NINEFOLD_CHROMIUM ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling Google's hosts on a closed network.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** A new tab that records what went wrong in it: console errors, page errors, CSP violations. */
  newPage(options?: { width?: number; height?: number }): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  /** Console errors, uncaught exceptions and Content-Security-Policy violations, in order. */
  problems: string[];
}

/** Starts Chromium with a fresh profile that is deleted on close. */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'ninefold-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  return {
    context,
    async newPage(options) {
      const page = await context.newPage();
      if (options?.width) await page.setViewportSize({ width: options.width, height: options.height ?? 800 });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      // Init scripts are injected by the browser, not the page, so the policy does not block them.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
        });
      });
      return { page, problems };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
