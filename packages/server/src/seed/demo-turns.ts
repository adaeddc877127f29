import type { Principal } from '@ninefold/model';
import { userView } from '../auth/users';
import type { Store, StoredRecord, StoredUser } from '../store/store';

/** How many records the seed's later passes read at a time. */
const BATCH = 500;

/** Each stored record of an entity, a page at a time: the seed's later passes read whole tables. */
export async function* storedRecords(store: Store, entity: string): AsyncGenerator<StoredRecord> {
  for (let offset = 0; ; offset += BATCH) {
    const page = await store.list(entity, { filters: [], sort: [], limit: BATCH, offset, withTotal: false });
    yield* page.items;
    if (page.items.length < BATCH) return;
  }
}

/**
 * The demo users taking turns: the next one, from the last one's turn, whose role `may` do what is asked
 * (enter this record, take this step), so that the work is shared among the roles that may do it.
 */
export class DemoTurns {
  private turn = 0;

  constructor(private readonly users: readonly StoredUser[]) {}

  next(may: (principal: Principal) => boolean): StoredUser | undefined {
    const { users } = this;
    for (let tried = 0; tried < users.length; tried += 1) {
      const user = users[(this.turn + tried) % users.length] as StoredUser;
      if (!may({ role: user.role, user: userView(user) })) continue;
      this.turn = (this.turn + tried + 1) % users.length;
      return user;
    }
    return undefined;
  }
}
