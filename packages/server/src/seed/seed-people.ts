import { checkAction, type Model, personFields } from '@ninefold/model';
import type { Store, StoredUser } from '../store/store';
import { DemoTurns, storedRecords } from './demo-turns';

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
    const turns = new DemoTurns(users);
    for await (const record of storedRecords(store, entity.name)) {
      const entered = (id: string) => ({
        ...record,
        ...Object.fromEntries(fields.map((field) => [field.name, id])),
      });
      const user = turns.next(
        (principal) =>
          checkAction(model, principal, entity.name, 'create', entered(String(principal.user?.id))).allowed,
      );
      const id = record[key];
      if (user === undefined || (typeof id !== 'string' && typeof id !== 'number')) continue;
      const values = Object.fromEntries(fields.map((field) => [field.name, user.id]));
      const updated = await store.update(entity.name, id, values);
      if (!updated.ok) throw new Error(`seeding people of ${entity.name} failed: ${updated.failure.kind}`);
    }
  }
}
