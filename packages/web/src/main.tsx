import './app/mantine.css';
// The theme's variables and responsive classes, made at build (vite.config.ts), after Mantine's defaults.
import 'virtual:ninefold-theme.css';
import './app/app.css';
// The notices and layouts of a team's extension: a few rules, in the one stylesheet every page has.
import './extension/extension.css';
import {
  type ApiDescription,
  type ApiWire,
  apiOf,
  type Model,
  type SpecPayload,
  screenAt,
} from '@ninefold/model';
import { type ReactNode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/App';
import { BootFailure } from './app/BootFailure';
import { basename } from './app/base-path';
import { connect } from './app/connect';
import { afterNextPaint } from './app/first-paint';
import { loadLaterStyles } from './app/later-styles';
import { IMPORT_PATH, screensOf } from './app/routes';
import { hasRowActions } from './extension/action-places';
import { type LoadedExtension, NO_EXTENSION, readExtension } from './extension/loaded';
import { reportRuntimeError } from './extension/report-runtime-error';
import { loadRecordExtras } from './extension/useRowActionsColumn';
import { type Locale, loadLocale } from './i18n/catalogue';
import { createI18n, initialLocale } from './i18n/I18nProvider';
import { loadScreen } from './screens/registry';

const root = createRoot(document.getElementById('root') as HTMLElement);

/**
 * The team's extension module, when this client was built with one: fetched beside the model. One that
 * throws while loading, or exports something that is not an extension, leaves the built-in screens in
 * place and says why on every screen.
 */
const extension: Promise<LoadedExtension> = __NINEFOLD_EXTENSION__
  ? import('virtual:ninefold-extension').then(readExtension, (error: unknown) => {
      console.error('[ninefold] the extension module could not be loaded', error);
      return { ...NO_EXTENSION, failure: error instanceof Error ? error.message : String(error) };
    })
  : Promise.resolve(NO_EXTENSION);

/** Puts a new version of the extension module into the running client; set once it runs. */
let swapExtension: ((next: LoadedExtension) => void) | undefined;
// In `ninefold dev` the bundler serves the module and sends each edit of it here: it is swapped into the
// client in place, so the page keeps its address, its open form and what was typed in it.
if (import.meta.hot && __NINEFOLD_EXTENSION__) {
  import.meta.hot.accept('virtual:ninefold-extension', (updated) => {
    if (updated) swapExtension?.(readExtension(updated));
  });
  // A throw outside rendering (an action's click, a promise) reaches no boundary: dev is told of it here.
  window.addEventListener('error', (event) => {
    if (event.error instanceof Error) reportRuntimeError('code in the page', event.error);
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (event.reason instanceof Error) reportRuntimeError('a promise in the page', event.reason);
  });
}

/** Fetches the checked model next to the page, then renders the client for it. */
async function boot(): Promise<void> {
  // The person's language, if not English, is fetched beside the model rather than after it.
  const language = loadLocale(initialLocale()).catch(() => {});
  let received: Omit<SpecPayload, 'api'> & { api: ApiWire };
  try {
    const answer = await fetch(new URL('spec.json', document.baseURI), {
      headers: { accept: 'application/json' },
    });
    if (!answer.ok) throw new Error(`the server answered ${answer.status} ${answer.statusText}`.trim());
    performance.mark('ninefold:model-fetched');
    received = (await answer.json()) as typeof received;
    performance.mark('ninefold:model-parsed');
    if (!received || typeof received !== 'object' || !received.model || !received.api) {
      throw new Error('it is not a Ninefold model');
    }
  } catch (error) {
    root.render(
      <BootFailure reason={error instanceof Error ? error.message : String(error)} onRetry={boot} />,
    );
    return;
  }
  await language;
  const payload: SpecPayload = { ...received, api: apiOf(received.model, received.api) };
  const loadedExtension = await extension;
  const first = screenAt(payload.model, routePath(window.location.pathname, basename()));
  // A first list with row actions: their code is asked for now, ahead of the list's own code and call,
  // so that it is here before the records are and the rows are drawn once, with their buttons.
  if (
    __NINEFOLD_EXTENSION__ &&
    first?.screen.kind === 'list' &&
    hasRowActions(loadedExtension.extension, first.screen.entity)
  ) {
    void loadRecordExtras().catch(() => {});
  }
  // The brand point 1 states, refined by the extension's (already a stylesheet of this build): set before
  // the first render, so that the page never shows in the stock colours first.
  const brand = payload.model.product.shown ? payload.model.product.theme : undefined;
  if (brand) {
    const { applyBrand } = await import('./extension/brand-theme');
    applyBrand({ ...brand, ...loadedExtension.extension.theme });
  }
  const { session, data } = connect(payload.model, payload.api);
  const queryClient = createQueryClient();
  if (first) {
    try {
      const module = await loadScreen(first.screen.kind);
      // Like a route loader: the first call starts now, and a quick answer is waited for so that the
      // first render draws the records at once instead of a skeleton followed by a second render. A slow
      // API gets the shell and the skeleton after a moment.
      const answered = module.prefetch?.({
        model: payload.model,
        screen: first.screen,
        data,
        queryClient,
        params: first.params,
        search: window.location.search,
        session: session.getSnapshot(),
      });
      if (answered) {
        // While the answer is on its way, the language's formatters load their locale data (10 to 20 ms
        // the first time in a page), which the first render would otherwise wait for.
        warmFormatters(initialLocale());
        await Promise.race([answered, delay(FIRST_ANSWER_WAIT_MS)]);
      }
    } catch {
      // A failure to load is left to the screen itself, which shows it inside the shell.
    }
  }
  let running = { ...payload, data, extension: loadedExtension };
  const openPreview = (document: { file: string; model: Model }) => {
    void startPreview(document, () => {
      window.history.replaceState(null, '', new URL(`.${IMPORT_PATH}`, window.document.baseURI));
      show(
        <App
          key={++renders}
          spec={{ ...running, openPreview }}
          queryClient={queryClient}
          session={session}
        />,
      );
    });
  };
  show(
    <App key={++renders} spec={{ ...running, openPreview }} queryClient={queryClient} session={session} />,
    {
      transition: screensOf(payload.model).length > LARGE_MODEL_SCREENS,
    },
  );
  const client = renders;
  swapExtension = (next) => {
    running = { ...running, extension: next };
    // The same key: React keeps every state the new module's components do not replace. A preview open
    // meanwhile is another client, left alone.
    if (renders !== client) return;
    show(<App key={client} spec={{ ...running, openPreview }} queryClient={queryClient} session={session} />);
  };
  // The stylesheet of what no first list or dashboard draws, once the first screen is drawn: ready before
  // a dialog or the next screen asks for it, and out of the first one's way.
  afterNextPaint(() => void loadLaterStyles());
}

/**
 * Above this many screens the first render is a transition too: GitHub's 631 render in one task of
 * 100 to 220 ms on a busy machine, in slices of under 100 ms as a transition, for the same time to the
 * first screen. A small model's first render is done at once, which paints it a little sooner.
 */
const LARGE_MODEL_SCREENS = 100;

/**
 * Renders a client, as a transition unless told otherwise: React then renders in slices of a few
 * milliseconds, so that a large model never holds the page in one long task. A client swapped in while
 * the page is in use (a preview of an imported document, of any size) is always a transition.
 */
function show(app: ReactNode, { transition = true }: { transition?: boolean } = {}): void {
  // Marks for the benchmarks (bench/client-openapi.ts), in the page's performance timeline.
  performance.mark('ninefold:render');
  if (transition) startTransition(() => root.render(app));
  else root.render(app);
}

/** Each render of another client (a preview, or back) gets a fresh router and state. */
let renders = 0;

/**
 * Replaces the running client with one for an imported model, on records kept in memory: the page has
 * no API for it, and a preview must not write to the real one.
 */
async function startPreview(document: { file: string; model: Model }, end: () => void) {
  const { createMemoryDataProvider } = await import('./data/memory-data-provider');
  const { model } = document;
  const api: ApiDescription = {
    base: '/api',
    conventional: false,
    calls: model.calls.shown ? model.calls.items : [],
  };
  const data = createMemoryDataProvider(model, api, {}, { validate: true });
  window.history.pushState(null, '', new URL('./', window.document.baseURI));
  show(
    <App
      key={++renders}
      spec={{ model, api, data, preview: { file: document.file, end } }}
      queryClient={createQueryClient()}
    />,
  );
}

/** How long the first render waits for the first screen's first answer. */
const FIRST_ANSWER_WAIT_MS = 250;

/** Formats a date and an amount once: V8 keeps the locale data for every later formatter of the page. */
function warmFormatters(locale: Locale): void {
  const { format } = createI18n(locale);
  format.date('2000-01-01');
  format.money(0);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The address inside the client: the path without the sub-path the client is served under. */
function routePath(pathname: string, base: string): string {
  if (base === '/' || !pathname.startsWith(base)) return pathname;
  return pathname.slice(base.length) || '/';
}

void boot();
