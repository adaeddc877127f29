import type { Model } from '@ninefold/model';
import type { ApiRecord } from '../data/data-provider';
import type { TabState } from './tab-api';

/**
 * The records a model's API holds, by entity, as the demo people are chosen from (`demoPrincipal`):
 * those the tab holds already (what the person entered in the preview is kept), else the seeded ones
 * made in the checking worker (see `seedRecords`) for entities the last text did not have.
 */
export function recordsOf(
  model: Model,
  state: TabState,
  seeded: Readonly<Record<string, ApiRecord[]>>,
): Record<string, ApiRecord[]> {
  const out: Record<string, ApiRecord[]> = {};
  for (const entity of model.entities.shown ? model.entities.items : []) {
    if (entity.embedded) continue;
    const held = state.tables.get(entity.name);
    out[entity.name] = held ? held.rows.map((row) => row.record) : (seeded[entity.name] ?? []);
  }
  return out;
}
