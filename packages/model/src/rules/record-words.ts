import { entityLabel } from '../lookup';
import type { Entity } from '../model';

// How a refusal names one record, written once for the prototype API, the playground's API in the tab and
// the memory provider: the same words whichever answers.

/** A piece of a request quoted in a message, cut short so that a hostile value cannot flood the answer. */
export function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** A record that does not exist, or that the role may not know exists (404 `NOT_FOUND`). */
export function notFoundMessage(entity: Pick<Entity, 'name' | 'label'>, key: string): string {
  return `There is no ${entityLabel(entity)} ${clip(key)}.`;
}

/** A change made on a version that is no longer the record's (412 `CHANGED_SINCE_READ`). */
export function changedSinceReadMessage(entity: Pick<Entity, 'name' | 'label'>, key: string): string {
  return `${entityLabel(entity)} ${clip(key)} was changed by someone else since you read it.`;
}

/** A delete that would leave a reference dangling (409 `STILL_REFERENCED`). */
export function stillReferencedMessage(
  entity: Pick<Entity, 'name' | 'label'>,
  key: string,
  by: string,
): string {
  return `${entityLabel(entity)} ${clip(key)} is still used by a ${by}; change or remove that first.`;
}
