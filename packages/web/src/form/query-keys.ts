import type { QueryClient } from '@tanstack/react-query';

/** Every record-level key of an entity starts with its name. */
export const entityKey = (entity: string) => [entity] as const;

/** One record, as `data.get` answers it (`{ record, version }`). */
export const recordKey = (entity: string, id: string) => [entity, 'record', id] as const;

/**
 * A referenced record, read for its name (see `data/reference-reader.ts`): perhaps from a list call, so
 * without the version a form needs, and kept apart from `recordKey`.
 */
export const referenceKey = (entity: string, id: string) => [entity, 'reference', id] as const;

/** A referenced record's name alone, as the API's names call tells it to a role that may not read it. */
export const nameKey = (entity: string, id: string) => [entity, 'name', id] as const;

/** Where people's names are kept: no entity is named with an `@`. */
export const PEOPLE = '@people';

/** The choices a reference input offers for a search text. */
export const optionsKey = (entity: string, search: string) => [entity, 'options', search] as const;

/**
 * After a write, everything read about an entity is stale: its records and choices (`[entity, …]`) and
 * its lists and dashboard counts (`['list', entity, …]`, see `src/list/list-query-key.ts`). They are
 * marked stale rather than refetched now: the screen that shows them next reads them again, and the
 * record just written would only answer 404 after a delete.
 */
export function invalidateEntity(client: QueryClient, entity: string): void {
  void client.invalidateQueries({ queryKey: entityKey(entity), refetchType: 'none' });
  void client.invalidateQueries({ queryKey: ['list', entity], refetchType: 'none' });
}
