import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, type TestSmtp } from '../test/support/smtp';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser, type WatchedPage } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';

// A new deployment invites its first colleague (issue 47), through the client in Chromium, with a real
// SMTP server (smtp-server from npm) taking the mail. The choir of e2e/fixtures/choir-people.yaml starts
// with one person, its director ("manages its people"), made with --user; nobody was seeded. The
// director invites a section leader, who sets a password from the emailed link, signs in, forgets it,
// resets it from a second email, and is deactivated by the director: after which nothing of theirs works.

let browser: Browser;
let server: NinefoldProcess;
let smtp: TestSmtp;
let directorPassword: string;

const LINK = /(http:\/\/127\.0\.0\.1:\d+\/_\/password#\S+)/;

beforeAll(async () => {
  smtp = await startSmtp();
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'e2e/fixtures/choir-people.yaml', [
      '--user',
      'dana@choir.test:director',
      '--smtp',
      smtp.url,
    ]),
  ]);
  const printed = /dana@choir\.test \(director\), password: (\S+)/.exec(server.output());
  if (!printed?.[1]) throw new Error(`no password printed: ${server.output()}`);
  directorPassword = printed[1];
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
  await smtp?.close();
});

async function signIn(watched: WatchedPage, email: string, password: string): Promise<void> {
  const { page } = watched;
  await page.goto(`${server.url}sign-in`);
  await page.getByLabel('Email', { exact: false }).fill(email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
}

const signInAnswer = (email: string, password: string) =>
  fetch(new URL('api/auth/sign-in', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

describe('a first colleague, from invitation to removal', () => {
  let director: WatchedPage;
  let colleague: WatchedPage;

  it('is invited by the director from the People page', async () => {
    director = await browser.newPage({ width: 1280, height: 900 });
    const { page } = director;
    await signIn(director, 'dana@choir.test', directorPassword);
    await page.getByRole('navigation').getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    const people = page.getByRole('list', { name: 'People' }).getByRole('listitem');
    await expect
      .poll(() => people.allInnerTexts())
      .toEqual([expect.stringContaining('dana@choir.test (you)')]);

    // A wrong address is refused at its field, by the API's own words.
    await page.getByRole('textbox', { name: 'Email' }).fill('ada at choir');
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Section leader' });
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('Enter an email address, like ann@example.com.').waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@choir.test');
    await page.getByRole('textbox', { name: /^Section/ }).fill('alto');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('An invitation is on its way to ada@choir.test.').waitFor();
    await expect.poll(() => people.count()).toBe(2);
    expect(await people.nth(0).innerText()).toMatch(
      /ada@choir\.test[\s\S]*Section leader · Section: alto[\s\S]*Invited/i,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'people-1280');
    // On a phone, each person's row wraps: nothing is cut or scrolls sideways.
    await page.setViewportSize({ width: 360, height: 800 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(360);
    await screenshot(page, 'people-360');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(director.problems).toEqual([]);
  });

  it('sets a password from the emailed link at 360 px, and signs in as a section leader', async () => {
    const mail = await smtp.mailTo('ada@choir.test');
    expect(mail.subject).toBe('You are invited to Northside community choir');
    const link = LINK.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    colleague = await browser.newPage({ width: 360, height: 800 });
    const { page } = colleague;
    await page.goto(link as string);
    await page.getByRole('heading', { name: 'Welcome: choose your password' }).waitFor();
    // The token is taken out of the address at once: not in the history, a bookmark or a shared screen.
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    // Sent empty, each field says what it needs (the core's rule), and nothing is sent.
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByText('The two passwords are not the same.').waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByLabel('New password', { exact: false }).getAttribute('aria-invalid'))
      .toBe('true');
    await page.getByLabel('New password', { exact: false }).fill('alto voices carry');
    await page.getByLabel('The same again', { exact: false }).fill('alto voices carry');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'people-set-password-360');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.getByText('Your password is set. Sign in with it.').waitFor();
    await signIn(colleague, 'ada@choir.test', 'alto voices carry');
    // In the page, not by address: the session lives in the tab's memory, and a new page load ends it.
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const navigation = page.getByRole('navigation');
    await navigation.getByRole('link', { name: 'Singers' }).click();
    await page.getByRole('heading', { name: 'Singers' }).waitFor();
    // A section leader manages nobody: no People in the navigation.
    expect(await navigation.getByRole('link', { name: 'People' }).count()).toBe(0);
    expect(colleague.problems).toEqual([]);
  });

  it('resets a forgotten password from a second email', async () => {
    const { page } = colleague;
    await page.context().clearCookies();
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${server.url}sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email', { exact: false }).fill('ada@choir.test');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByText('If ada@choir.test signs in here, a link is on its way.', { exact: false })
      .waitFor();
    await screenshot(page, 'people-forgot-360');
    const mail = await smtp.mailTo('ada@choir.test', 2);
    expect(mail.subject).toBe('Reset your password for Northside community choir');
    await page.goto(LINK.exec(mail.text)?.[1] as string);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await page.getByLabel('New password', { exact: false }).fill('tenors hold the line');
    await page.getByLabel('The same again', { exact: false }).fill('tenors hold the line');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.waitForURL(/\/sign-in$/);
    expect((await signInAnswer('ada@choir.test', 'alto voices carry')).status).toBe(401);
    await signIn(colleague, 'ada@choir.test', 'tenors hold the line');
    expect(colleague.problems).toEqual([]);
  });

  it('is removed by the director: signed out at once, and refused from then on', async () => {
    const { page } = director;
    // Back to People by the navigation (a reload would end the session, kept in the tab's memory).
    await page.getByRole('navigation').getByRole('link', { name: 'Singers' }).click();
    await page.getByRole('heading', { name: 'Singers' }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'People' }).click();
    const ada = page
      .getByRole('list', { name: 'People' })
      .getByRole('listitem')
      .filter({ hasText: 'ada@choir.test' });
    await expect.poll(() => ada.innerText()).toMatch(/Active/i);
    await ada.getByRole('button', { name: 'More for ada@choir.test' }).click();
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate' });
    await dialog.getByText('Deactivate ada@choir.test?', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('ada@choir.test is deactivated and signed out.').waitFor();
    await expect.poll(() => ada.innerText()).toMatch(/Deactivated/i);
    await screenshot(page, 'people-deactivated-1280');

    // The colleague's open page is asked to sign in again at its next call; signing in is refused.
    await colleague.page.getByRole('button', { name: 'Open navigation' }).click();
    await colleague.page.getByRole('navigation').getByRole('link', { name: 'Rehearsals' }).click();
    await colleague.page
      .getByRole('dialog')
      .getByText(/deactivated|sign in/i)
      .first()
      .waitFor();
    await screenshot(colleague.page, 'people-removed-360');
    expect((await signInAnswer('ada@choir.test', 'tenors hold the line')).status).toBe(401);

    // Each step is in the director's Changes, named by the person's email.
    await page.getByRole('navigation').getByRole('link', { name: 'Changes' }).click();
    const entries = page.getByRole('main').getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(4);
    const texts = await entries.allInnerTexts();
    expect(texts.map((text) => text.split(' · ')[0])).toEqual([
      'Edited Person ada@choir.test',
      'Edited Person ada@choir.test',
      'Edited Person ada@choir.test',
      'Created Person ada@choir.test',
    ]);
    expect(texts[0]).toMatch(/Status\s+Active\s+Deactivated/);
    expect(texts.join('\n')).not.toMatch(/scrypt|hash|tenors|alto voices/);
    expect(director.problems).toEqual([]);
    await director.page.close();
    await colleague.page.close();
  });
});
