import type { Model } from '@ninefold/spec';
import type { ApiRecord } from '../data/data-provider';

/**
 * The records the tab's API starts a model with: those `kept` from the text before this edit, entity by
 * entity, so that an edit never loses what the person entered in the preview; the `seeded` ones (made in
 * the checking worker, see `seedRecords`) for entities the last text did not have.
 */
export function tabRecords(
  model: Model,
  kept: Readonly<Record<string, ApiRecord[]>>,
  seeded: Readonly<Record<string, ApiRecord[]>>,
): Record<string, ApiRecord[]> {
  const out: Record<string, ApiRecord[]> = {};
  for (const entity of model.entities.shown ? model.entities.items : []) {
    if (entity.embedded) continue;
    out[entity.name] = kept[entity.name] ?? seeded[entity.name] ?? [];
  }
  return out;
}
