import type { Page } from 'playwright-core';
import type { NinefoldProcess } from './ninefold';

/**
 * The password `serve --seed` printed for this start's demo users (`owner@demo.test`, …). It is shown
 * once, on the terminal, which is where a person would read it too.
 */
export function demoPassword(server: NinefoldProcess): string {
  const found = /demo password: (\S+)/.exec(server.output())?.[1];
  if (!found) throw new Error(`serve printed no demo password:\n${server.output()}`);
  return found;
}

/** Signs in on the client's sign-in screen as a person does, as the demo user of a role. */
export async function signInAs(page: Page, server: NinefoldProcess, role: string, next = ''): Promise<void> {
  await page.goto(`${server.url}sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Email', { exact: false }).fill(`${role}@demo.test`);
  await page.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(server));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
}

/** Calls of the prototype API made as a role's demo user, for tests that check what was saved. */
export async function apiAs(
  server: NinefoldProcess,
  role: string,
): Promise<(path: string, init?: RequestInit) => Promise<Response>> {
  const answer = await fetch(new URL('api/auth/sign-in', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${role}@demo.test`, password: demoPassword(server) }),
  });
  if (!answer.ok) throw new Error(`sign-in as ${role} answered ${answer.status}`);
  const { token } = (await answer.json()) as { token: string };
  return (path, init = {}) =>
    fetch(new URL(`api${path}`, server.url), {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
    });
}
