import type { Model } from '@ninefold/model';
import type { Query, QueryClient } from '@tanstack/react-query';
import type { DataProvider } from '../data/data-provider';
import type { LiveChange } from '../data/live-events';

/** Changes are gathered this long before the screens read again: an import's burst is one refresh. */
const GATHER_MS = 150;

/**
 * Follows the API's changes and reads again, in place, every query over an entity that changed, through
 * the same calls and permissions as before: a stream never shows more than the screen would. A change the
 * stream may have missed (a long drop) reads everything again. Answers the function that stops.
 */
export function followQueries(
  data: DataProvider,
  model: Model,
  client: QueryClient,
  tell: (change: LiveChange) => void,
): () => void {
  if (!data.follow) return () => {};
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const entities = new Set(pending);
    pending.clear();
    void client.invalidateQueries({ predicate: (query) => readsEntity(model, query, entities) });
  };
  const stop = data.follow({
    onChange(change) {
      tell(change);
      pending.add(change.entity);
      timer ??= setTimeout(flush, GATHER_MS);
    },
    onReset() {
      void client.invalidateQueries();
    },
  });
  return () => {
    stop();
    if (timer) clearTimeout(timer);
  };
}

/**
 * Whether a query reads records of these entities: a record and its names (`[entity, …]`), a list or a
 * dashboard count (`['list', entity, …]`), or a figure over the entity (`['figure', screen, name]`).
 */
function readsEntity(model: Model, query: Query, entities: ReadonlySet<string>): boolean {
  const [first, second, third] = query.queryKey;
  if (typeof first === 'string' && entities.has(first)) return true;
  if (first === 'list' && typeof second === 'string') return entities.has(second);
  if (first === 'figure' && model.screens.shown) {
    const screen = model.screens.items.find((item) => item.name === second);
    const figure =
      screen?.kind === 'dashboard' ? screen.figures.find((item) => item.name === third) : undefined;
    return figure !== undefined && entities.has(figure.entity);
  }
  return false;
}
