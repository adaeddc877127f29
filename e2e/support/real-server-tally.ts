// The per-server tally of issue 39: for each entity of each real server, whether a person can list its
// records, open one, create, edit and delete one (each checked through the server's own API), choose a
// referenced record in a picker, and read the server's refusal on its field. Each step is tried on its
// own, so one that fails does not hide the others. `npx tsx bench/real-servers-tally.ts` runs it and
// writes bench/results/real-servers-tally.json.
import type { Page } from 'playwright-core';
import type { Browser } from './browser';
import type { NinefoldProcess } from './ninefold';
import { api, DIRECTUS_ADMIN, type RealServer } from './real-servers';

export type Step = 'list' | 'open' | 'create' | 'edit' | 'delete' | 'picker' | 'message';

export interface EntityTally {
  server: string;
  entity: string;
  steps: Partial<Record<Step, boolean>>;
}

/** How to use one entity through its client, and how to check each step through the server's API. */
export interface EntityPlan {
  entity: string;
  /** The list route, e.g. `suppliers`. */
  route: string;
  /** A record the server has, shown by this name. */
  seeded: string;
  /** Fills the create form with a new record named `name`. */
  fill(page: Page, name: string): Promise<void>;
  /** The label of a field to change on edit, and the value typed. */
  edit: { label: string; value: string };
  /** The records the server holds now, by name. */
  names(): Promise<string[]>;
  /** The value of the edited field in the record named `name`, as the server holds it. */
  edited(name: string): Promise<unknown>;
  /** The label of a reference field that must be a picker, if the entity has one. */
  picker?: string;
  /** Fills the form so that only the server refuses it, and the label of the field it refuses. */
  refused?: { fill(page: Page): Promise<void>; label: string };
}

const STEP_TIMEOUT = 8_000;

async function attempt(run: () => Promise<boolean>): Promise<boolean> {
  try {
    return await run();
  } catch (error) {
    if (process.env.TALLY_DEBUG) console.log(String(error).split('\n').slice(0, 4).join(' | '));
    return false;
  }
}

/** Signs in through the client's own sign-in page when the client has one, as Directus's admin. */
export async function signIn(page: Page, dev: NinefoldProcess): Promise<void> {
  await page.goto(dev.url);
  await page.getByRole('link', { name: 'Sign in' }).first().click();
  const email = page.getByLabel('Email');
  await email.waitFor();
  await email.fill(DIRECTUS_ADMIN.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(DIRECTUS_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForTimeout(1_500);
}

/** Goes to a route without reloading the page, so that a session kept in memory stays. */
async function visit(page: Page, route: string): Promise<void> {
  // A string, since this module is also type-checked without the DOM's types (bench/).
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(`/${route}`)}); dispatchEvent(new PopStateEvent('popstate'));`,
  );
}

export async function tallyEntity(
  browser: Browser,
  server: string,
  dev: NinefoldProcess,
  plan: EntityPlan,
  withSignIn: boolean,
): Promise<EntityTally> {
  const { page } = await browser.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT);
  const steps: EntityTally['steps'] = {};
  const start = async (route: string) => {
    if (!withSignIn) {
      await page.goto(`${dev.url}${route}`);
      return;
    }
    // Through the list, so that a form opened again starts empty rather than as it was left.
    await visit(page, plan.route);
    await page.getByRole('heading', { level: 1 }).waitFor();
    if (route !== plan.route) await visit(page, route);
  };
  if (withSignIn) await signIn(page, dev).catch(() => undefined);
  else await page.goto(dev.url);
  const name = `Tally ${plan.entity} ${Date.now()}`;

  steps.list = await attempt(async () => {
    await start(plan.route);
    await page
      .getByRole('row', { name: new RegExp(plan.seeded) })
      .first()
      .waitFor();
    return true;
  });
  steps.open = await attempt(async () => {
    await page.getByRole('link', { name: plan.seeded, exact: true }).first().click();
    await page.getByRole('heading', { name: plan.seeded }).waitFor();
    return true;
  });
  if (plan.picker !== undefined) {
    const label = plan.picker;
    steps.picker = await attempt(async () => {
      await start(`${plan.route}/new`);
      await page.getByRole('combobox', { name: label }).click();
      await page.getByRole('listbox').getByRole('option').first().waitFor();
      return true;
    });
  }
  if (plan.refused !== undefined) {
    const refused = plan.refused;
    steps.message = await attempt(async () => {
      await start(`${plan.route}/new`);
      await refused.fill(page);
      await page.getByRole('button', { name: 'Save' }).click();
      const field = page.getByLabel(refused.label, { exact: false }).first();
      for (let waited = 0; waited < STEP_TIMEOUT; waited += 250) {
        if ((await field.getAttribute('aria-invalid')) === 'true') return true;
        await page.waitForTimeout(250);
      }
      return (await field.getAttribute('aria-invalid')) === 'true';
    });
  }
  const before = await plan.names().catch(() => [] as string[]);
  steps.create = await attempt(async () => {
    await start(`${plan.route}/new`);
    await plan.fill(page, name);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name }).waitFor();
    const after = await plan.names();
    return after.filter((one) => one === name).length === 1 && after.length === before.length + 1;
  });
  steps.edit = await attempt(async () => {
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel(plan.edit.label, { exact: false }).first().fill(plan.edit.value);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Edit' }).waitFor();
    return String(await plan.edited(name)) === plan.edit.value;
  });
  steps.delete = await attempt(async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    for (let waited = 0; waited < 12_000; waited += 500) {
      if (!(await plan.names()).includes(name)) return (await plan.names()).length === before.length;
      await page.waitForTimeout(500);
    }
    return false;
  });
  await page.close();
  return { server, entity: plan.entity, steps };
}

type Row = Record<string, unknown>;
const listOf = async (server: RealServer, path: string): Promise<Row[]> => {
  const answer = await api<Row[] | { data: Row[] }>(server, 'GET', path);
  return Array.isArray(answer) ? answer : answer.data;
};

export function platformaticPlans(server: RealServer): EntityPlan[] {
  return [
    {
      entity: 'Supplier',
      route: 'suppliers',
      seeded: 'Acme Bolts',
      fill: async (page, name) => {
        await page.getByLabel('Name', { exact: false }).first().fill(name);
      },
      edit: { label: 'Rating', value: '4' },
      names: async () => (await listOf(server, '/suppliers/?limit=100')).map((row) => String(row.name)),
      edited: async (name) =>
        (await listOf(server, '/suppliers/?limit=100')).find((row) => row.name === name)?.rating,
    },
    {
      entity: 'Part',
      route: 'parts',
      seeded: 'M8 bolt',
      picker: 'Supplier id',
      fill: async (page, name) => {
        await page.getByLabel('Name', { exact: false }).first().fill(name);
        await page.getByLabel('Price', { exact: false }).first().fill('1.5');
        await page.getByLabel('Stock', { exact: false }).first().fill('3');
        const picker = page.getByRole('combobox', { name: 'Supplier id' });
        if ((await picker.count()) > 0) {
          await picker.click();
          await page.getByRole('listbox').getByRole('option').first().click();
        } else await page.getByLabel('Supplier id', { exact: false }).first().fill('1');
      },
      edit: { label: 'Stock', value: '9' },
      names: async () => (await listOf(server, '/parts/?limit=100')).map((row) => String(row.name)),
      edited: async (name) =>
        (await listOf(server, '/parts/?limit=100')).find((row) => row.name === name)?.stock,
    },
  ];
}

export function directusPlans(server: RealServer): EntityPlan[] {
  return [
    {
      entity: 'events',
      route: 'items/events',
      seeded: 'Spring fair',
      fill: async (page, name) => {
        await page.getByLabel('Title', { exact: false }).first().fill(name);
      },
      edit: { label: 'Places', value: '20' },
      names: async () => (await listOf(server, '/items/events?limit=-1')).map((row) => String(row.title)),
      edited: async (name) =>
        (await listOf(server, '/items/events?limit=-1')).find((row) => row.title === name)?.places,
      refused: {
        fill: async (page) => {
          await page.getByLabel('Title', { exact: false }).first().fill('Too big');
          await page.getByLabel('Places', { exact: false }).first().fill('70');
        },
        label: 'Places',
      },
    },
    {
      entity: 'signups',
      route: 'items/signups',
      seeded: 'Ada Byron',
      picker: 'Event',
      fill: async (page, name) => {
        await page.getByLabel('Name', { exact: false }).first().fill(name);
      },
      edit: { label: 'Email', value: 'edited@example.com' },
      names: async () => (await listOf(server, '/items/signups?limit=-1')).map((row) => String(row.name)),
      edited: async (name) =>
        (await listOf(server, '/items/signups?limit=-1')).find((row) => row.name === name)?.email,
    },
  ];
}
