import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Model, Screen } from '@ninefold/model';
import type { Locator, Page } from 'playwright-core';
import { importOpenApi } from '../../../packages/openapi/src/index';
import { corpusPath, corpusReadOptions } from '../../../packages/openapi/test/support/corpus';
import { seriousViolations } from '../axe';
import type { Browser, WatchedPage } from '../browser';
import { type NinefoldProcess, startNinefold } from '../ninefold';
import { freePort, type PrismProcess, startPrism } from '../prism';
import { fillForm } from './fill-form';
import { type DocumentPaths, documentPaths, parameterValue } from './paths';

/** What one document's client did in Chromium against Prism. */
export interface DocumentFigures {
  document: string;
  screens: number;
  screensWithoutPageErrors: number;
  lists: number;
  listsWithRows: number;
  /** Lists with rows whose document has a detail call (`GET /widgets/{key}` beside `GET /widgets`). */
  listsWithDetailCall: number;
  listsOpeningRecord: number;
  createForms: number;
  createFormsOpened: number;
  createFormsSaved: number;
  /** One line per thing that fell short, naming the screen: what the closing note lists as still failing. */
  failures: string[];
  /** Serious and critical axe findings on the first screen of each kind (and the sign-in page). */
  accessibility: string[];
}

export interface DriveOptions {
  browser: Browser;
  /** At most this many screens of each kind (lists, creates, others), for the test's time budget. */
  limit?: number;
  seed?: string;
}

const SETTLE_MS = 15_000;

/**
 * Serves one corpus document with Prism (dynamic answers, seeded) behind `ninefold dev DOC --api`, then
 * walks its client as a person would: every screen by its address, each list's first row into its
 * record, and each create form filled with valid values and saved.
 */
export async function driveDocument(document: string, options: DriveOptions): Promise<DocumentFigures> {
  const path = corpusPath(document);
  const imported = importOpenApi({ text: readFileSync(path, 'utf8'), file: path }, corpusReadOptions());
  const figures: DocumentFigures = {
    document,
    screens: 0,
    screensWithoutPageErrors: 0,
    lists: 0,
    listsWithRows: 0,
    listsWithDetailCall: 0,
    listsOpeningRecord: 0,
    createForms: 0,
    createFormsOpened: 0,
    createFormsSaved: 0,
    failures: [],
    accessibility: [],
  };
  if (imported.model === undefined) {
    figures.failures.push(`import: ${imported.issues[0]?.message ?? 'no model'}`);
    return figures;
  }
  const model = imported.model;
  const paths = documentPaths(path);
  const port = await freePort();
  const scratch = mkdtempSync(join(tmpdir(), 'ninefold-ui-corpus-'));
  let prism: PrismProcess | undefined;
  let dev: NinefoldProcess | undefined;
  try {
    [prism, dev] = await Promise.all([
      startPrism(withFilledLists(path, scratch), { port, seed: options.seed ?? 'ninefold' }),
      startNinefold('dev', path, ['--api', `http://127.0.0.1:${port}`, '--root', corpusPath('.')]),
    ]);
    const screens = pickScreens(model, options.limit);
    // One tab for the whole walk, signed in once: what the client keeps per tab is kept across pages.
    const tab = await options.browser.newPage();
    try {
      await tab.page.goto(dev.url);
      await settle(tab.page);
      await signIn(tab.page, model, dev, figures);
      // Keys of records opened so far, by the shape of the record's route: the parents of nested screens.
      const known = new Map<string, string>();
      const audited = new Set<string>();
      for (const screen of screens) await visit(screen, model, paths, dev, tab, figures, { known, audited });
    } finally {
      await tab.page.close();
    }
  } finally {
    await Promise.all([dev?.stop(), prism?.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  }
  return figures;
}

/**
 * A copy of the document for Prism that asks its faker for one or two items in every array: left to
 * itself it often answers an empty list, which says nothing about whether the client shows rows. Only
 * a vendor extension is added; the API described stays the same.
 */
function withFilledLists(path: string, folder: string): string {
  const text = readFileSync(path, 'utf8');
  const copy = join(folder, basename(path));
  // One or two items: deeply nested schemas (Jira's) multiply every array, and five of each made
  // answers of megabytes that took Prism longer than a person waits.
  const options = { minItems: 1, maxItems: 2 };
  if (/\.json$/i.test(path)) {
    const document = JSON.parse(text) as Record<string, unknown>;
    writeFileSync(copy, JSON.stringify({ ...document, 'x-json-schema-faker': options }));
  } else {
    writeFileSync(copy, `${text.trimEnd()}\nx-json-schema-faker:\n  minItems: 1\n  maxItems: 2\n`);
  }
  return copy;
}

/**
 * Lists first, then create forms, then the rest; each kind in the model's order, the shallower first (a
 * parent's list opens the record whose key its nested screens need), and cut to the limit.
 */
function pickScreens(model: Model, limit = Number.POSITIVE_INFINITY): Screen[] {
  const depth = (screen: Screen) => screen.route.split('/:').length;
  const of = (kinds: Screen['kind'][]) =>
    screensOf(model)
      .filter((screen) => kinds.includes(screen.kind))
      .slice(0, limit)
      .sort((a, b) => depth(a) - depth(b));
  return [...of(['list']), ...of(['create']), ...of(['detail', 'edit', 'dashboard', 'custom'])];
}

async function visit(
  screen: Screen,
  model: Model,
  paths: DocumentPaths,
  dev: NinefoldProcess,
  { page, problems: seen }: WatchedPage,
  figures: DocumentFigures,
  { known, audited }: { known: Map<string, string>; audited: Set<string> },
): Promise<void> {
  const before = seen.length;
  const address = addressOf(screen.route, paths, known);
  const at = `${screen.kind} ${screen.route}`;
  try {
    await follow(page, address);
    await settle(page);
    await giveAskedValues(page, paths);
    figures.screens += 1;
    const crashed = await page.getByText('This screen failed to show').count();
    const errors = seen.slice(before).filter((problem) => problem.startsWith('page error:'));
    if (errors.length === 0 && crashed === 0) figures.screensWithoutPageErrors += 1;
    else
      figures.failures.push(
        `${at}: ${errors[0] ?? `the screen crashed (${seen.slice(before).join(' | ').slice(0, 400)})`}`,
      );
    // axe on the first screen of each kind, as the page first shows it.
    if (!audited.has(screen.kind)) {
      audited.add(screen.kind);
      await audit(page, at, figures);
    }

    if (screen.kind === 'list') {
      figures.lists += 1;
      const rows = page.locator('tbody tr');
      const count = await rows.count();
      if (count === 0) {
        figures.failures.push(`${at}: no rows (${await pageSays(page)})`);
        return;
      }
      figures.listsWithRows += 1;
      if (!paths.hasDetailCall(screen.route)) return;
      figures.listsWithDetailCall += 1;
      // The record's own detail, else whatever record the item path below the list reads.
      const below = screensOf(model).filter(
        (other) => other.kind === 'detail' && isBelow(other.route, screen.route),
      );
      const detail =
        below.find((other) => other.kind === 'detail' && other.entity === screen.entity) ?? below[0];
      // The row's own link, not a reference to another record that a cell may show first.
      let link: Locator | undefined;
      for (const candidate of await rows.first().locator('a[href]').all()) {
        const href = (await candidate.getAttribute('href')) ?? '';
        if (detail !== undefined && routeMatches(detail.route, new URL(href, dev.url).pathname)) {
          link = candidate;
          break;
        }
      }
      if (detail === undefined || link === undefined) {
        figures.failures.push(`${at}: rows do not open a record${detail ? '' : ' (no detail screen)'}`);
        return;
      }
      await link.click({ timeout: 5_000 });
      await settle(page);
      const opened = new URL(page.url()).pathname;
      const alerts = await page.getByRole('alert').count();
      if (routeMatches(detail.route, opened))
        known.set(shapeOf(detail.route), opened.split('/').at(-1) ?? '');
      if (routeMatches(detail.route, opened) && alerts === 0) figures.listsOpeningRecord += 1;
      else figures.failures.push(`${at}: the row opened ${opened} (${await pageSays(page)})`);
    } else if (screen.kind === 'create') {
      figures.createForms += 1;
      const form = page.locator('form');
      const submit = form.locator('button[type=submit]');
      await submit
        .first()
        .waitFor({ timeout: SETTLE_MS })
        .catch(() => undefined);
      if ((await form.count()) === 0 || (await submit.count()) === 0) {
        figures.failures.push(`${at}: no form (${await pageSays(page)})`);
        return;
      }
      figures.createFormsOpened += 1;
      await fillForm(form.first());
      const saved = page
        .waitForResponse(
          (response) => response.url().includes('/api/') && response.request().method() !== 'GET',
          { timeout: SETTLE_MS },
        )
        .catch(() => undefined);
      await submit.first().click({ timeout: 5_000 });
      const response = await saved;
      // A saved form goes on to the new record: that must happen before the next screen is asked for,
      // or it lands on top of it.
      if (response?.ok())
        await page
          .waitForURL((url) => !routeMatches(screen.route, url.pathname), { timeout: SETTLE_MS })
          .catch(() => undefined);
      if (response === undefined) {
        figures.failures.push(`${at}: nothing was sent (${await pageSays(page)})`);
        return;
      }
      // Prism checks its own made-up answer too; only what it says of the request is the client's doing.
      const violations = requestViolations(response.headers()['sl-violations']);
      if (response.ok() && violations === undefined) figures.createFormsSaved += 1;
      else
        figures.failures.push(
          `${at}: ${response.request().method()} answered ${response.status()}${violations ? ` ${violations.slice(0, 300)}` : ''}`,
        );
    }
  } catch (error) {
    figures.failures.push(`${at}: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * Answers the client's "the API needs a few values" form, as a person who knows their organisation
 * would: a value of each parameter's type from the document.
 */
async function giveAskedValues(page: Page, paths: DocumentPaths): Promise<void> {
  const button = page.getByRole('button', { name: 'Use these values' });
  if ((await button.count()) === 0) return;
  const form = page.locator('form', { has: button });
  for (const input of await form.locator('input[name]').all()) {
    const name = (await input.getAttribute('name')) ?? '';
    await input.fill(parameterValue(paths, name));
  }
  await button.click();
  await settle(page);
}

/** A made-up credential: Prism checks that one is sent, in the scheme's place, not what it is. */
const SECRET = 'ninefold-corpus-secret';

/**
 * Signs in as a person would, with what the sign-in page asks for: a user name and password, an API key
 * or an access token. A client whose sign-in cannot be done here is walked signed out, and says why.
 */
async function signIn(
  page: Page,
  model: Model,
  dev: NinefoldProcess,
  figures: DocumentFigures,
): Promise<void> {
  if (!model.roles.shown || model.roles.signIn.kind === 'none') return;
  await page.goto(new URL('_/sign-in', dev.url).href);
  await settle(page);
  const form = page.locator('main form').first();
  await form.waitFor({ timeout: SETTLE_MS }).catch(() => undefined);
  await audit(page, `sign-in ${model.roles.signIn.kind}`, figures);
  if ((await form.count()) === 0) {
    figures.failures.push(`sign-in ${model.roles.signIn.kind}: no form (${await pageSays(page)})`);
    return;
  }
  for (const input of await form.locator('input').all()) {
    const label = (await input.getAttribute('autocomplete')) === 'username' ? 'ada' : SECRET;
    await input.fill(label);
  }
  await form.locator('button[type=submit]').click();
  await settle(page);
  // Signing in ends on the home page; a failure stays on the sign-in page with its reason.
  if (new URL(page.url()).pathname.startsWith('/_/sign-in'))
    figures.failures.push(`sign-in ${model.roles.signIn.kind}: still on the page (${await pageSays(page)})`);
}

/**
 * Goes to an address inside the client as a followed link does (the history changes, the page stays):
 * what the tab holds (a session kept in memory) stays, as it does for a person clicking through.
 */
async function follow(page: Page, address: string): Promise<void> {
  // A string, not a function: the bench's type check has no DOM types.
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(address)}); dispatchEvent(new PopStateEvent('popstate'))`,
  );
  // React may keep the last screen on view while the next one's code loads, with no loader to see.
  await page.waitForTimeout(300);
}

async function audit(page: Page, at: string, figures: DocumentFigures): Promise<void> {
  for (const violation of await seriousViolations(page))
    figures.accessibility.push(
      `${at}: ${violation.id} (${violation.help}) at ${violation.nodes.slice(0, 3).join(', ')}`,
    );
}

/** Prism's findings about the request, from its `sl-violations` header; undefined when there are none. */
function requestViolations(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    const found = (JSON.parse(header) as Array<{ location?: string[] }>).filter(
      (violation) => violation.location?.[0] === 'request',
    );
    return found.length === 0 ? undefined : JSON.stringify(found);
  } catch {
    // "Too many violations!" and the like: Prism cut the list short, so it is read as it stands.
    return /"request"/.test(header) ? header : undefined;
  }
}

const LOADING = '.mantine-Skeleton-root, .mantine-Loader-root, [aria-busy=true]';

/**
 * Until the screen shows no loader twice in a row, 150 ms apart (or ten seconds pass: a page that
 * never finishes loading is a finding, not a hang).
 */
async function settle(page: Page): Promise<void> {
  const until = Date.now() + SETTLE_MS;
  let quiet = 0;
  await page.waitForLoadState('load').catch(() => undefined);
  while (Date.now() < until && quiet < 2) {
    await page.waitForTimeout(150);
    quiet = (await page.locator(LOADING).count()) === 0 ? quiet + 1 : 0;
  }
}

/** The page's alerts or its first heading, for a failure line. */
async function pageSays(page: Page): Promise<string> {
  const alert = page.getByRole('alert').first();
  if ((await alert.count()) > 0) return (await alert.innerText()).replace(/\s+/g, ' ').slice(0, 200);
  const errors = page.locator('[aria-invalid=true]');
  if ((await errors.count()) > 0) {
    const names = await Promise.all((await errors.all()).map((input) => input.getAttribute('name')));
    return `invalid: ${names.join(', ')}`;
  }
  return (
    await page
      .locator('main')
      .first()
      .innerText()
      .catch(() => '')
  )
    .replace(/\s+/g, ' ')
    .slice(0, 120);
}

/** `/accounts/:sid/addresses` -> `/accounts/:/addresses`: routes that name their parameters otherwise match. */
function shapeOf(route: string): string {
  return route.replace(/:[^/]+/g, ':');
}

/**
 * The address of a route: each parameter from the record opened at that place when there was one (as a
 * person reaches a nested screen), else a value of the parameter's type from the document.
 */
function addressOf(route: string, paths: DocumentPaths, known: Map<string, string>): string {
  const segments = route.split('/');
  return segments
    .map((segment, index) => {
      if (!segment.startsWith(':')) return segment;
      const opened = known.get(shapeOf(segments.slice(0, index + 1).join('/')));
      return opened ?? encodeURIComponent(parameterValue(paths, segment.slice(1)));
    })
    .join('/');
}

function screensOf(model: Model): Screen[] {
  return model.screens.shown ? model.screens.items : [];
}

function isBelow(route: string, parent: string): boolean {
  const segments = route.split('/');
  return segments.length === parent.split('/').length + 1 && segments.slice(0, -1).join('/') === parent;
}

function routeMatches(route: string, pathname: string): boolean {
  const pattern = route.split('/');
  const actual = pathname.split('/');
  return (
    pattern.length === actual.length && pattern.every((part, i) => part.startsWith(':') || part === actual[i])
  );
}
