import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { skipLaterStyles } from '../src/app/later-styles';
import { dismissAll } from '../src/feedback/feedback-store';
import { loadLocale } from '../src/i18n/catalogue';
import { mediaQueryList } from './support/media-query';

// findBy and waitFor wait up to 5 s, not 1: the suite runs beside browsers on two shared cores, where a
// list screen once took past a second to render its table in happy-dom. A failure still fails, later.
configure({ asyncUtilTimeout: 5_000 });

// The test DOM loads no stylesheet and never says so: screens must not wait for one.
skipLaterStyles();

// Tests render French at once, as the client does once it has loaded a person's language at start.
await loadLocale('fr');

// Mantine reads these browser APIs, which happy-dom leaves out.
if (!window.matchMedia) {
  window.matchMedia = (query: string) => mediaQueryList(query, false);
}
// Mantine's focus trap finds nothing focusable where happy-dom computes no layout, and says so with the
// whole React fiber attached: thousands of lines per dialog in the log, about the test DOM, not the client
// (the browser tests run the same dialogs in Chromium).
for (const method of ['error', 'warn'] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('[@mantine/hooks/use-focus-trap]')) return;
    original(...args);
  };
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

afterEach(() => {
  cleanup();
  // Notices are kept outside React, for the whole page: one test's must not be in the next.
  dismissAll();
  // A session kept in the tab's storage (the rich example allows it) must not sign in the next test,
  // nor a form draft one test leaves be offered to the next.
  window.sessionStorage.clear();
  window.localStorage.clear();
});
