import {
  derivedValues,
  findEntity,
  type Model,
  storedRecordErrors,
  storedRecordRuleErrors,
} from '@ninefold/model';
import { readerOf, withNumbers } from '../record-rules';
import type { Store, StoredRecord } from '../store/store';

/**
 * Seeds only a database whose entities are all empty: generated references are the positions of the
 * generated records, which hold only when every table is filled from scratch together. Records are
 * numbered as creates are (their histories come with their people: `seedHistories`), and the rules
 * of point 5 the generated records still break are said, rule by rule, rather than kept quiet.
 * Answers whether it seeded.
 */
/** No entity is named with a colon: this lock is the seed's own. */
const SEED_LOCK = 'ninefold:seed';

export async function seed(
  store: Store,
  model: Model,
  count: number,
  log: (line: string) => void,
): Promise<boolean> {
  // Loaded only when seeding: the data generator is the slowest module to load.
  const { generateRecords } = await import('./generate-records');
  const records = generateRecords(model, count, { seed: count });
  const now = Date.now();
  return store.transaction(async (tx) => {
    // Two nodes started together on an empty database: one seeds, the other then finds records. The
    // schema's lock first, as a migration takes it, so that neither waits on the other holding it.
    await tx.lockSchema();
    await tx.lockForRules([SEED_LOCK]);
    for (const entity of records.keys()) {
      const existing = await tx.list(entity, { filters: [], sort: [], limit: 1, withTotal: false });
      if (existing.items.length > 0) {
        log(`  not seeded: ${entity} already has records (--seed fills only an empty database)`);
        return false;
      }
    }
    const referenced = referencedEntities(model);
    for (const [entity, rows] of records) {
      const described = findEntity(model, entity);

      const left = new Map<string, number>();
      // Records, not messages: one that breaks two rules is one record left out.
      let skipped = 0;
      for (const row of rows) {
        const values = { ...row, ...derivedValues(model, entity, row) };
        // A record no other seeded record points at can be left out when it breaks a rule; one that is
        // pointed at is written, and said below, so that the records after it still hold.
        if (!referenced.has(entity)) {
          const broken = await ruleErrors(model, tx, entity, values, new Date(now));
          if (broken.length > 0) {
            for (const message of new Set(broken)) left.set(message, (left.get(message) ?? 0) + 1);
            skipped++;
            continue;
          }
        }
        const created = await tx.create(
          entity,
          described ? await withNumbers(tx, described, values) : values,
        );
        if (!created.ok) throw new Error(`seeding ${entity} failed: ${JSON.stringify(created.failure)}`);
      }
      log(`  ${entity}: seeded ${rows.length - skipped} records`);
      for (const [message, times] of left) {
        log(
          `  ${entity}: left out ${times} generated record${times === 1 ? '' : 's'} that would break a rule: ${message}`,
        );
      }
    }
    for (const line of await brokenRules(model, tx, [...records.keys()], new Date(now))) log(line);
    return true;
  });
}

/** The entities some field of another record refers to (their records cannot be left out). */
function referencedEntities(model: Model): Set<string> {
  const names = new Set<string>();
  for (const entity of model.entities.shown ? model.entities.items : []) {
    for (const field of entity.fields) {
      const inner = field.kind === 'list' ? field.of : field;
      if (inner.kind === 'reference') names.add(inner.entity);
    }
  }
  return names;
}

/** The messages of the rules a record about to be seeded breaks, as a create would be checked. */
async function ruleErrors(
  model: Model,
  tx: Store,
  entity: string,
  record: StoredRecord,
  now: Date,
): Promise<string[]> {
  const refused = storedRecordErrors(model, entity, record, { now });
  if (refused.length > 0) return refused.map((error) => error.message);
  const errors = await storedRecordRuleErrors(model, entity, record, { now, reader: readerOf(tx) });
  return errors.map((error) => error.message);
}

/** What the seeded records of each entity still break, one line per rule (or constraint) and entity. */
async function brokenRules(model: Model, tx: Store, entities: string[], now: Date): Promise<string[]> {
  const lines: string[] = [];
  for (const entity of entities) {
    const all: StoredRecord[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await tx.list(entity, { filters: [], sort: [], limit: 500, offset, withTotal: false });
      all.push(...page.items);
      if (page.items.length < 500) break;
    }
    const broken = new Map<string, number>();
    for (const record of all) {
      const errors = storedRecordErrors(model, entity, record, { now });
      if (errors.length === 0) {
        errors.push(...(await storedRecordRuleErrors(model, entity, record, { now, reader: readerOf(tx) })));
      }
      for (const message of new Set(errors.map((error) => error.message))) {
        broken.set(message, (broken.get(message) ?? 0) + 1);
      }
    }
    for (const [message, times] of broken) {
      lines.push(
        `  ${entity}: ${times} of ${all.length} seeded records break a rule the seed could not meet: ${message}`,
      );
    }
  }
  return lines;
}
