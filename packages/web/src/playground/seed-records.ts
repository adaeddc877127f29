import { derivedValues, findEntity, formatNumber, type Model, numberedFields } from '@ninefold/model';
import { generateRecords } from '@ninefold/server/seed';
import type { ApiRecord } from '../data/data-provider';

/** How many records of each entity the playground makes, as `ninefold serve --seed 12` would. */
export const TAB_SEED_COUNT = 12;

let cached: { key: string; records: Record<string, ApiRecord[]> } | undefined;

/**
 * Records for every stored entity of a model, made by the generator `ninefold serve --seed` uses (the
 * same model and count give the same records), with their derived values and numbers. Made in the
 * checking worker: the generator and its word lists are the largest code the playground has, and the
 * page never loads them. The last answer is kept while the parts of the model it reads are unchanged,
 * so that typing elsewhere in the text costs nothing here.
 */
export function seedRecords(model: Model, count = TAB_SEED_COUNT): Record<string, ApiRecord[]> {
  const key = JSON.stringify([count, model.entities, model.states, model.validation, model.constants]);
  if (cached?.key === key) return cached.records;
  const generated = generateRecords(model, count, { seed: count });
  const records: Record<string, ApiRecord[]> = {};
  for (const [name, rows] of generated) {
    const entity = findEntity(model, name);
    const patterns = entity ? numberedFields(entity) : [];
    records[name] = (rows as ApiRecord[]).map((row, index) => {
      const record: ApiRecord = { ...row, ...derivedValues(model, name, row) };
      for (const { field, pattern } of patterns) record[field] = formatNumber(pattern, index + 1);
      return record;
    });
  }
  cached = { key, records };
  return records;
}
