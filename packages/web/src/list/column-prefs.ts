import { useCallback, useState } from 'react';

/**
 * The columns a person has hidden in a list, kept in this browser per person and per screen: a choice of
 * an end user, not of the specification. Read before the list's first render, so a hidden column never
 * shows for a moment first.
 */
export function useHiddenColumns(
  screen: string,
  person: string | undefined,
): [hidden: readonly string[], setHidden: (next: readonly string[]) => void] {
  const key = storageKey(screen, person);
  const [state, setState] = useState(() => ({ key, hidden: readHidden(key) }));
  // Another person, or another list in the same screen component: its own choice.
  const current = state.key === key ? state.hidden : readHidden(key);
  const setHidden = useCallback(
    (next: readonly string[]) => {
      setState({ key, hidden: next });
      try {
        if (next.length === 0) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage refused (full, or private mode): the choice holds for this page only.
      }
    },
    [key],
  );
  return [current, setHidden];
}

function storageKey(screen: string, person: string | undefined): string {
  return `ninefold:columns:${person ?? 'anyone'}:${screen}`;
}

/** What was stored, if it is a list of names; anything else (edited by hand, another version) is none. */
function readHidden(key: string): readonly string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(key) ?? '[]');
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : [];
  } catch {
    return [];
  }
}
