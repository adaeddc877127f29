import {
  type AnchorHTMLAttributes,
  createContext,
  type MouseEvent,
  type ReactNode,
  type RefAttributes,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import { type BaseLocationHook, Router, useRouter, Link as WouterLink } from 'wouter';
import { useSearch as useBrowserSearch } from 'wouter/use-browser-location';

/**
 * The client's seam over its router (wouter, about 2 kB, in place of React Router's 20 kB in every first
 * load). The client matches its screens itself (`screenAt` in packages/model), so all it asks of a router
 * is the address, a way to change it, and links; every module imports those from here.
 *
 * Addresses are read as they are written: wouter's own `useLocation` and `useSearch` decode them first,
 * which would turn a filter's `%2541` into `A` and decode a route parameter twice.
 */
export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement>, RefAttributes<HTMLAnchorElement> {
  /** A path below the client's base, with its search if any. */
  to: string;
  /** Replace the current entry of the tab's history instead of adding one. */
  replace?: boolean;
}

/**
 * A link that changes the address without loading the page, unless the person asks for a new tab or
 * window. Typed without wouter's generic location hook, which Mantine's `component` prop cannot infer.
 */
export const Link = WouterLink as (props: LinkProps) => ReactNode;

export interface Place {
  /** Below the client's base path, still encoded, as `screenAt` expects it. */
  pathname: string;
  /** With its `?`, or empty. */
  search: string;
}

export interface NavigateOptions {
  /** Replace the current entry of the tab's history instead of adding one. */
  replace?: boolean;
}

interface History {
  back(): void;
  /** Whether the entry before this one is a page of this client. */
  canGoBack(): boolean;
  /** The address's path now, with the base: what a screen rendered a moment ago may no longer show. */
  pathname(): string;
}

const IN_APP = 'ninefold:in-app';

const browserHistory: History = {
  back: () => window.history.back(),
  canGoBack: () => (window.history.state as Record<string, unknown> | null)?.[IN_APP] === true,
  pathname: () => window.location.pathname,
};

const HistoryContext = createContext<History>(browserHistory);

/**
 * Every navigation of the client marks its history entry, so that "Go back" knows whether the entry
 * before is one of the client's pages or the page the tab came from. A replaced entry keeps the mark of
 * the one it replaces.
 */
function markInApp(
  navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => void,
  to: string,
  options?: { replace?: boolean; state?: unknown },
): void {
  const inApp = options?.replace ? browserHistory.canGoBack() : true;
  navigate(to, { ...options, state: { [IN_APP]: inApp } });
}

/** The tab's address, below `base` (the path the client is served under). */
export function BrowserRouter({ base, children }: { base: string; children: ReactNode }) {
  return (
    <Router base={base === '/' ? '' : base} searchHook={useBrowserSearch} aroundNav={markInApp}>
      {children}
    </Router>
  );
}

/** An address held in memory, for tests and previews: `entries` is the history, the last one current. */
export function MemoryRouter({ entries, children }: { entries: string[]; children: ReactNode }) {
  const memory = useRef<MemoryHistory>(undefined);
  memory.current ??= createMemoryHistory(entries);
  const { hook, searchHook, history } = memory.current;
  return (
    <HistoryContext.Provider value={history}>
      <Router hook={hook} searchHook={searchHook}>
        {children}
      </Router>
    </HistoryContext.Provider>
  );
}

interface MemoryHistory {
  hook: BaseLocationHook;
  searchHook: () => string;
  history: History;
}

function createMemoryHistory(initial: string[]): MemoryHistory {
  const entries = initial.length > 0 ? [...initial] : ['/'];
  let index = entries.length - 1;
  let listeners: Array<() => void> = [];
  const subscribe = (listener: () => void) => {
    listeners = [...listeners, listener];
    return () => {
      listeners = listeners.filter((other) => other !== listener);
    };
  };
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const current = () => splitAddress(entries[index] ?? '/');
  const navigate = (to: string, options?: { replace?: boolean }) => {
    if (options?.replace) entries[index] = to;
    else {
      entries.splice(index + 1, entries.length, to);
      index = entries.length - 1;
    }
    changed();
  };
  const snapshot = (part: 'pathname' | 'search') => () => current()[part];
  const pathname = snapshot('pathname');
  const search = snapshot('search');
  return {
    hook: () => [useSyncExternalStore(subscribe, pathname), navigate],
    searchHook: () => useSyncExternalStore(subscribe, search),
    history: {
      back: () => {
        if (index === 0) return;
        index -= 1;
        changed();
      },
      canGoBack: () => index > 0,
      pathname,
    },
  };
}

function splitAddress(address: string): Place {
  const at = address.indexOf('?');
  return at < 0
    ? { pathname: address, search: '' }
    : { pathname: address.slice(0, at), search: address.slice(at) };
}

/** The current address, below the client's base path. */
export function useLocation(): Place {
  const router = useRouter();
  const [absolute] = router.hook(router);
  const search = router.searchHook(router);
  return {
    pathname: belowBase(router.base, absolute),
    search: search === '' || search.startsWith('?') ? search : `?${search}`,
  };
}

function belowBase(base: string, pathname: string): string {
  if (base === '' || base === '/') return pathname;
  const lower = pathname.toLowerCase();
  const prefix = base.toLowerCase();
  if (lower === prefix) return '/';
  return lower.startsWith(`${prefix}/`) ? pathname.slice(base.length) : pathname;
}

/** Changes the address: `to` is a path below the client's base, with its search if any. */
export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  const router = useRouter();
  const [, navigate] = router.hook(router);
  const base = router.base;
  return useCallback(
    (to: string, options?: NavigateOptions) =>
      router.aroundNav(navigate, `${base === '/' ? '' : base}${to}`, options ?? {}),
    [router, navigate, base],
  );
}

/**
 * Back to the page before, when it is one of the client's; otherwise (the tab opened this page first)
 * to `fallback`, so that the button never leaves the client.
 */
export function useGoBack(): (fallback: string) => void {
  const history = useContext(HistoryContext);
  const navigate = useNavigate();
  return useCallback(
    (fallback: string) => (history.canGoBack() ? history.back() : navigate(fallback)),
    [history, navigate],
  );
}

/** The address's search parameters, and a way to replace them that keeps the path. */
export function useSearchParams(): [URLSearchParams, (next: URLSearchParams) => void] {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const router = useRouter();
  const history = useContext(HistoryContext);
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (next: URLSearchParams) => {
      // Written late for a page the person has left, it would take them back: a list's search sent by
      // its timer while the next screen's code loads, the list still mounted, hidden by Suspense (a
      // search typed, then New pressed within the debounce, landed on the list again).
      if (belowBase(router.base, history.pathname()) !== pathname) return;
      const text = next.toString();
      navigate(text === '' ? pathname : `${pathname}?${text}`);
    },
    [navigate, pathname, router, history],
  );
  return [params, set];
}

/** Goes to `to` once rendered, in place of the current entry. */
export function Navigate({ to }: { to: string }) {
  const navigate = useNavigate();
  useLayoutEffect(() => {
    navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}

/** Links rendered as plain anchors in bulk, followed by one listener on their container. */
export interface PlainLinks {
  /** The anchor's `href` for a path below the client's base. */
  href(to: string): string;
  /** For the container: follows a click on a plain link (`data-to`) inside it without loading the page. */
  onClick(event: MouseEvent<HTMLElement>): void;
}

/**
 * Plain anchors for a table's hundreds of links: each `Link` is a component that subscribes to the
 * address, which a page of rows paid for in its first render. A click with a modifier key, or on a link
 * with a target, is left to the browser (a new tab or window), as `Link` does.
 */
export function usePlainLinks(): PlainLinks {
  const router = useRouter();
  const navigate = useNavigate();
  const base = router.base === '/' ? '' : router.base;
  return useMemo(
    () => ({
      href: (to: string) => `${base}${to}`,
      onClick: (event: MouseEvent<HTMLElement>) => {
        if (event.defaultPrevented || event.button !== 0) return;
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        const anchor = (event.target as Element).closest?.('a[data-to]');
        if (!(anchor instanceof HTMLAnchorElement) || !event.currentTarget.contains(anchor)) return;
        if (anchor.target !== '' && anchor.target !== '_self') return;
        const to = anchor.dataset.to;
        if (to === undefined) return;
        event.preventDefault();
        navigate(to);
      },
    }),
    [base, navigate],
  );
}
