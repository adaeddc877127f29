import { checkAction, type Model, personFields } from '@ninefold/model';
import { userView } from '../auth/users';
import type { Store, StoredUser } from '../store/store';

/** How many records are read at a time while giving them their people. */
const BATCH = 500;

/**
 * Gives the records just seeded real people in their person fields ("Entered by", `user.id` set on
 * create): the demo users, taking turns, each only where their role may create such a record as it
 * will be (a clerk enters orders, the warehouse does not). The generator cannot: the users are made
 * after the records, since a demo customer is linked to a seeded record. Without this, every "Entered
 * by" names nobody, and a condition such as `record.ownerId == user.id` holds for no record.
 * A field no demo user's role may create is left as generated.
 */
export async function seedPeople(store: Store, model: Model, users: StoredUser[]): Promise<void> {
  if (!model.entities.shown || users.length === 0) return;
  for (const entity of model.entities.items) {
    const fields = entity.embedded ? [] : personFields(entity);
    if (fields.length === 0) continue;
    const key = entity.key ?? 'id';
    let turn = 0;
    for (let offset = 0; ; offset += BATCH) {
      const page = await store.list(entity.name, {
        filters: [],
        sort: [],
        limit: BATCH,
        offset,
        withTotal: false,
      });
      for (const record of page.items) {
        const values: Record<string, string> = {};
        for (let tried = 0; tried < users.length; tried += 1) {
          const user = users[(turn + tried) % users.length] as StoredUser;
          const made = { ...record, ...Object.fromEntries(fields.map((field) => [field.name, user.id])) };
          const principal = { role: user.role, user: userView(user) };
          if (!checkAction(model, principal, entity.name, 'create', made).allowed) continue;
          for (const field of fields) values[field.name] = user.id;
          turn = (turn + tried + 1) % users.length;
          break;
        }
        const id = record[key];
        if (Object.keys(values).length === 0 || (typeof id !== 'string' && typeof id !== 'number')) continue;
        const updated = await store.update(entity.name, id, values);
        if (!updated.ok) throw new Error(`seeding people of ${entity.name} failed: ${updated.failure.kind}`);
      }
      if (page.items.length < BATCH) break;
    }
  }
}
