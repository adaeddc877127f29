import { useCallback, useState } from 'react';

// What a person chose for a list (its columns, its page size), kept in this browser per person and per
// screen: a choice of an end user, not of the specification. Read before the list's first render, so a
// hidden column never shows for a moment first.

/** The columns a person has hidden in a list. */
export function useHiddenColumns(
  screen: string,
  person: string | undefined,
): [hidden: readonly string[], setHidden: (next: readonly string[]) => void] {
  return usePersonChoice('columns', screen, person, names, []);
}

/** The rows per page a person chose for a list; undefined: the screen's own. */
export function usePageSize(
  screen: string,
  person: string | undefined,
): [size: number | undefined, setSize: (next: number | undefined) => void] {
  return usePersonChoice<number | undefined>('page-size', screen, person, pageSize, undefined);
}

function usePersonChoice<T>(
  kind: string,
  screen: string,
  person: string | undefined,
  read: (value: unknown) => T | undefined,
  fallback: T,
): [T, (next: T) => void] {
  const key = personKey(kind, screen, person);
  const load = () => readStored(key, read) ?? fallback;
  const [state, setState] = useState(() => ({ key, value: load() }));
  // Another person, or another list in the same screen component: its own choice.
  const current = state.key === key ? state.value : load();
  const set = useCallback(
    (next: T) => {
      setState({ key, value: next });
      try {
        if (next === undefined || (Array.isArray(next) && next.length === 0))
          window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage refused (full, or private mode): the choice holds for this page only.
      }
    },
    [key],
  );
  return [current, set];
}

/** Where a person's choice of a kind for a screen is kept. */
export function personKey(kind: string, screen: string, person: string | undefined): string {
  return `ninefold:${kind}:${person ?? 'anyone'}:${screen}`;
}

/** What was stored, if `read` accepts it; anything else (edited by hand, another version) is none. */
export function readStored<T>(key: string, read: (value: unknown) => T | undefined): T | undefined {
  try {
    const text = window.localStorage.getItem(key);
    return text === null ? undefined : read(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function names(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

function pageSize(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1000
    ? value
    : undefined;
}
