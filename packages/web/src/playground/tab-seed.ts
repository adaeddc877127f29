import { generateRecords } from '@ninefold/server/seed';
import { derivedValues, findEntity, formatNumber, type Model, parseNumbering } from '@ninefold/spec';
import type { ApiRecord } from '../data/data-provider';

/** How many records of each entity the playground makes, as `ninefold serve --seed 12` would. */
export const TAB_SEED_COUNT = 12;

/**
 * Records for a model the tab has not seen yet, made by the generator `ninefold serve --seed` uses (the
 * same model and count give the same records), with their derived values and numbers. Entities `kept`
 * already holds (from the text before this edit) keep their records: an edit never loses what the
 * person entered in the preview.
 */
export function tabRecords(
  model: Model,
  kept: Readonly<Record<string, ApiRecord[]>>,
  count = TAB_SEED_COUNT,
): Record<string, ApiRecord[]> {
  const out: Record<string, ApiRecord[]> = {};
  const names = model.entities.shown
    ? model.entities.items.filter((entity) => !entity.embedded).map((entity) => entity.name)
    : [];
  const missing = names.filter((name) => kept[name] === undefined);
  const generated = missing.length > 0 ? generateRecords(model, count, { seed: count }) : new Map();
  for (const name of names) {
    const held = kept[name];
    if (held !== undefined) {
      out[name] = held;
      continue;
    }
    const entity = findEntity(model, name);
    const rows = (generated.get(name) ?? []) as ApiRecord[];
    const patterns = (entity?.fields ?? []).flatMap((field) => {
      const parsed = field.numbering === undefined ? undefined : parseNumbering(field.numbering);
      return parsed?.ok ? [{ field: field.name, pattern: parsed.pattern }] : [];
    });
    out[name] = rows.map((row, index) => {
      const record: ApiRecord = { ...row, ...derivedValues(model, name, row) };
      for (const { field, pattern } of patterns) record[field] = formatNumber(pattern, index + 1);
      return record;
    });
  }
  return out;
}
