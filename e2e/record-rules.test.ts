import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { description } from './support/described-by';
import { type NinefoldProcess, startNinefold } from './support/ninefold';

let browser: Browser;
let server: NinefoldProcess;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'packages/model/test/fixtures/helpdesk.md'),
  ]);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

type Row = Record<string, unknown> & { id: number };

async function api<T = Row>(path: string, init: RequestInit = {}): Promise<T> {
  const answer = await fetch(new URL(`api${path}`, server.url), {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

const post = (path: string, body: object = {}) => api(path, { method: 'POST', body: JSON.stringify(body) });

describe('rules across records, in the helpdesk', () => {
  it('a fourth open ticket is refused with the catalogue’s words on the customer, and a closed one makes room', async () => {
    const customer = await post('/customers', { name: 'Harbour Pumps', plan: 'pro' });
    const tickets = [];
    for (let index = 0; index < 3; index++) {
      tickets.push(await post('/tickets', { customer: customer.id, subject: `Leak ${index + 1}` }));
    }
    // Numbered in the create's transaction, one after another.
    expect(tickets.map((ticket) => ticket.number)).toEqual(['HD-00001', 'HD-00002', 'HD-00003']);

    const { page, problems } = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${server.url}tickets/new`);
    const picker = page.getByRole('combobox', { name: /^Customer/ });
    await picker.click();
    await picker.fill('Harb');
    await page.getByRole('option', { name: 'Harbour Pumps' }).click();
    await page.getByLabel(/^Subject/).fill('Pump noise');
    const answered = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save' }).click();
    const answer = await answered;
    expect({ status: answer.status(), code: (await answer.json()).code }).toEqual({
      status: 422,
      code: 'TOO_MANY_OPEN',
    });
    // The catalogue's entry, with the constant filled in, on the field it names.
    const message = 'This customer already has 3 open tickets; close one first.';
    const alert = page.getByRole('alert');
    await alert.getByText(message).first().waitFor();
    await expect.poll(() => description(page, picker)).toContain(message);
    expect(await picker.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel(/^Subject/).inputValue()).toBe('Pump noise');
    await screenshot(page, 'record-rules-open-limit');
    expect(await seriousViolations(page)).toEqual([]);

    // Closing one ticket elsewhere makes room: the same form saves, and the ticket gets the next number.
    await post(`/tickets/${tickets[0]?.id}/close`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await page.getByText('HD-00004').first().waitFor();
    expect(problems.filter((problem) => !problem.includes('status of 422'))).toEqual([]);
    await page.close();
  });

  it('a third hold is refused by the guard over other tickets, with the constant in its message', async () => {
    const customer = await post('/customers', { name: 'Quay Cranes', plan: 'pro' });
    const [first, second, third] = [
      await post('/tickets', { customer: customer.id, subject: 'Cable' }),
      await post('/tickets', { customer: customer.id, subject: 'Hook' }),
      await post('/tickets', { customer: customer.id, subject: 'Brake' }),
    ];
    await post(`/tickets/${first?.id}/hold`);
    await post(`/tickets/${second?.id}/hold`);

    const { page, problems } = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${server.url}tickets/${third?.id}`);
    const answered = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: /^hold$/i }).click();
    const answer = await answered;
    expect({ status: answer.status(), code: (await answer.json()).code }).toEqual({
      status: 409,
      code: 'GUARD_FAILED',
    });
    await page.getByRole('alert').getByText('This customer already has 2 tickets on hold.').first().waitFor();
    await screenshot(page, 'record-rules-hold-guard');
    expect(problems.filter((problem) => !problem.includes('status of 409'))).toEqual([]);
    await page.close();
  });
});
