import { personKey, readStored } from './column-prefs';

/** A list as a person saved it under a name: its filters, search and order, columns and page size. */
export interface SavedView {
  name: string;
  /** The address's query without the page: `status=paid&sort=-total`. */
  query: string;
  hidden: string[];
  pageSize?: number;
}

/** A person's saved views of a screen, kept in this browser. */
export function readViews(screen: string, person: string | undefined): SavedView[] {
  return readStored(personKey('views', screen, person), views) ?? [];
}

/** Keeps the views; false when the browser refused (full, or private mode). */
export function writeViews(screen: string, person: string | undefined, list: SavedView[]): boolean {
  try {
    const key = personKey('views', screen, person);
    if (list.length === 0) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}

/** A view under a name, replacing one of the same name, in name order. */
export function withView(list: readonly SavedView[], view: SavedView): SavedView[] {
  return [...list.filter((other) => other.name !== view.name), view].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
}

function views(value: unknown): SavedView[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (item): item is SavedView =>
      typeof item === 'object' &&
      item !== null &&
      typeof item.name === 'string' &&
      typeof item.query === 'string' &&
      Array.isArray(item.hidden) &&
      item.hidden.every((name: unknown) => typeof name === 'string') &&
      (item.pageSize === undefined || (Number.isInteger(item.pageSize) && item.pageSize >= 1)),
  );
}
