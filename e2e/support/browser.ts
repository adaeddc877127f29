import { chromium, type Page, type Browser as PlaywrightBrowser } from 'playwright-core';

/** Debian's Chromium; Playwright's own browser download cannot work on these machines. */
export const CHROMIUM = process.env.NINEFOLD_CHROMIUM ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling Google's hosts on a closed network.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const EXPECTED_REFUSAL = /^Failed to load resource: the server responded with a status of (409|412|422) /;

export interface Browser {
  browser: PlaywrightBrowser;
  /**
   * A new tab in a context of its own (no storage shared with other tabs) that records what went
   * wrong in it: console errors, page errors, CSP violations. Closing the page closes its context.
   */
  newPage(options?: {
    width?: number;
    height?: number;
    /** What the person's system says of motion; Chromium's own default is `no-preference`. */
    reducedMotion?: 'reduce' | 'no-preference';
  }): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  /** Console errors (Chromium logs Content-Security-Policy violations there) and uncaught exceptions. */
  problems: string[];
}

/** Starts Chromium; Playwright gives each launch a fresh, temporary profile (user-data-dir). */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return {
    browser,
    async newPage(options) {
      const context = await browser.newContext({
        viewport: { width: options?.width ?? 1280, height: options?.height ?? 800 },
        locale: 'en-GB',
        timezoneId: 'UTC',
        reducedMotion: options?.reducedMotion ?? 'no-preference',
      });
      const page = await context.newPage();
      page.once('close', () => void context.close().catch(() => undefined));
      const problems: string[] = [];
      page.on('console', (message) => {
        // Chromium logs every 4xx answer; refusals a test provokes (422, 409, 412) are the API working.
        if (message.type() === 'error' && !EXPECTED_REFUSAL.test(message.text())) {
          // Chromium's "Failed to load resource" names no address; the message's location does.
          const where = message.location().url;
          problems.push(
            `console: ${message.text()}${where && /^Failed to load resource/.test(message.text()) ? ` (${where})` : ''}`,
          );
        }
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return { page, problems };
    },
    async close() {
      await browser.close();
    },
  };
}
