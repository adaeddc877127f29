import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, signInAs } from './support/sign-in';

// A record's changes on its page (issue 47), on a community radio of our own
// (e2e/fixtures/radio-programmes.yaml). The oracle is the fixture's words: the producer "may do
// everything" and sees every write, its fields and who made it; a listener "reads the programmes once
// they are scheduled; no notes, no fees", so sees only the step that scheduled it, without the notes,
// the fee, or who took it.

let browser: Browser;
let server: NinefoldProcess;
let id: number;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'e2e/fixtures/radio-programmes.yaml', ['--seed', '2']),
  ]);
  const producer = await apiAs(server, 'producer');
  const host = await apiAs(server, 'host');
  const hostId = ((await (await host('/auth/session')).json()) as { user: { id: string } }).user.id;
  const json = { 'content-type': 'application/json' };
  const created = await producer('/programmes', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      title: 'Night Owls',
      host: hostId,
      slot: 'Fri 23:00',
      notes: 'Ask about the cousin’s band',
      fee: 7777,
    }),
  });
  expect(created.status).toBe(201);
  id = ((await created.json()) as { id: number }).id;
  const etag = created.headers.get('etag') ?? '';
  const edited = await producer(`/programmes/${id}`, {
    method: 'PATCH',
    headers: { ...json, 'if-match': etag },
    body: JSON.stringify({ slot: 'Sat 00:30', fee: 8888 }),
  });
  expect(edited.status).toBe(200);
  expect((await producer(`/programmes/${id}/schedule`, { method: 'POST' })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

describe('a record’s changes', () => {
  it('shows the producer every write, field by field, with who made it', async () => {
    const { page, problems } = await browser.newPage({ width: 1280, height: 900 });
    await signInAs(page, server, 'producer', `/programmes/${id}`);
    const section = page.getByRole('region', { name: 'Changes' });
    const entries = section.getByRole('listitem');
    await entries.first().waitFor();
    const texts = await entries.allInnerTexts();
    expect(texts).toHaveLength(3);
    expect(texts[0]).toMatch(/^Schedule · by .+ · /);
    expect(texts[0]).toMatch(/Status\s+Draft\s+Scheduled/i);
    expect(texts[1]).toMatch(/^Edited · by /);
    expect(texts[1]).toMatch(/Slot\s+Fri 23:00\s+Sat 00:30/);
    expect(texts[1]).toMatch(/Fee\s+7,777\s+8,888/);
    expect(texts[2]).toMatch(/^Created · by /);
    expect(texts[2]).toContain('Ask about the cousin’s band');
    expect(await seriousViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'record-changes-1280');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a listener at 360 px only what they may read: the scheduling, no notes, no fee, no names', async () => {
    const { page, problems } = await browser.newPage({ width: 360, height: 800 });
    await signInAs(page, server, 'listener', `/programmes/${id}`);
    const section = page.getByRole('region', { name: 'Changes' });
    const entries = section.getByRole('listitem');
    await entries.first().waitFor();
    const texts = await entries.allInnerTexts();
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^Schedule · /);
    expect(texts[0]).not.toContain(' by ');
    const text = await section.innerText();
    for (const secret of ['Ask about', '7,777', '8,888', 'Fee', 'Producer’s notes']) {
      expect(text).not.toContain(secret);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'record-changes-360');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('lists the changes across records for the producer, narrowed to an entity, and downloads them as CSV', async () => {
    const { page, problems } = await browser.newPage({ width: 1280, height: 900 });
    await signInAs(page, server, 'producer', '/programmes');
    await page.getByRole('navigation').getByRole('link', { name: 'Changes' }).click();
    await page.getByRole('heading', { name: 'Changes', level: 1 }).waitFor();
    const entries = page.getByRole('main').getByRole('listitem');
    await entries.first().waitFor();
    const texts = await entries.allInnerTexts();
    // The seed's records were written before the trail began: only the three writes of this test are in it.
    expect(texts.map((text) => text.split(' · ')[0])).toEqual([
      `Schedule Programme ${id}`,
      `Edited Programme ${id}`,
      `Created Programme ${id}`,
    ]);
    await page.getByRole('combobox', { name: 'Changes to' }).selectOption({ label: 'Programmes' });
    await expect.poll(() => entries.count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'changes-page-1280');
    // The record's link opens it.
    await page
      .getByRole('link', { name: `Programme ${id}` })
      .first()
      .click();
    await page.waitForURL(new RegExp(`/programmes/${id}$`));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('gives a listener at 360 px the same page and CSV with only what they may read', async () => {
    const { page, problems } = await browser.newPage({ width: 360, height: 800 });
    await signInAs(page, server, 'listener', '/_/changes');
    const entries = page.getByRole('main').getByRole('listitem');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download as CSV' }).click(),
    ]);
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        let text = '';
        stream.on('data', (chunk) => {
          text += chunk;
        });
        stream.on('end', () => resolve(text));
        stream.on('error', reject);
      }, reject);
    });
    expect(csv.replace(/^\uFEFF/, '').split('\n')[0]).toBe(
      'at,entity,key,action,transition,call,by,field,before,after',
    );
    expect(csv).toContain('Night Owls');
    for (const secret of ['Ask about', '7777', '8888']) expect(csv).not.toContain(secret);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'changes-page-360');
    expect(problems).toEqual([]);
    await page.close();
  });
});
