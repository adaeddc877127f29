import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, ROOT, startNinefold } from './support/ninefold';

// Point 1's brand as data, with no extension module: the client draws in it from its first render.
const LOGO = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#862e9c"/></svg>').toString('base64')}`;

let browser: Browser;
let server: NinefoldProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ninefold-brand-'));
  const spec = readFileSync(join(ROOT, 'examples/helpdesk.md'), 'utf8').replace(
    /(## 1\. What the product does and for whom\n\n(?:[^\n]+\n)+\n)/,
    `$1- Brand colour: #862e9c\n- Logo: ${LOGO}\n- Radius: 10\n\n`,
  );
  if (!spec.includes('Brand colour')) throw new Error('the brand was not added to point 1');
  writeFileSync(join(dir, 'helpdesk.md'), spec);
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', join(dir, 'helpdesk.md'), ['--seed', '3']),
  ]);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe("point 1's brand", () => {
  it('colours the page and shows the logo from the first render, under the strict policy', async () => {
    const { page, problems } = await browser.newPage();
    // The first frame the page paints with its header already has the brand: checked as it appears.
    await page.addInitScript({
      content: `new MutationObserver((_, observer) => {
        if (!document.querySelector('header')) return;
        observer.disconnect();
        window.__brandAtHeader = getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled').trim();
      }).observe(document, { childList: true, subtree: true });`,
    });
    await page.goto(server.url);
    const logo = page.getByRole('banner').locator('img.nf-logo');
    await logo.waitFor();
    expect(await logo.getAttribute('src')).toBe(LOGO);
    expect(await page.evaluate('window.__brandAtHeader')).toBe('#862e9c');
    expect(
      await page.evaluate(
        `getComputedStyle(document.documentElement).getPropertyValue('--mantine-radius-default').trim()`,
      ),
    ).toBe('10px');
    // The helpdesk asks for a sign-in first: its page, in the brand's colour and corners.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'brand-point-1-1280');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps the logo and the brand at 360 px', async () => {
    const { page, problems } = await browser.newPage({ width: 360, height: 800 });
    await page.goto(server.url);
    await page.getByRole('banner').locator('img.nf-logo').waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'brand-point-1-360');
    expect(problems).toEqual([]);
    await page.close();
  });
});
