import type { Store } from '../../src/store/store';

/**
 * The store, with a way to hold the next `create` until the test lets it go (a request "in progress"),
 * and to make the next one fail as a lost database connection would.
 */
export function controllableStore(store: Store) {
  let hold: { reached: () => void; release: Promise<void> } | undefined;
  let failNext = false;
  /** A held request waits before its write's transaction opens: SQLite's one connection stays free meanwhile. */
  const waitIfHeld = async () => {
    const held = hold;
    hold = undefined;
    if (held) {
      held.reached();
      await held.release;
    }
  };
  // A keyed create runs inside a transaction, on the transaction's store: that one is controlled too.
  const wrap = (inner: Store): Store =>
    new Proxy(inner, {
      get(target, property) {
        if (property === 'transaction') {
          return async <T>(work: (tx: Store) => Promise<T>) => {
            await waitIfHeld();
            return target.transaction((tx) => work(wrap(tx)));
          };
        }
        // With the audit trail on, a create arrives as `createAudited`: either is held, or fails, alike.
        if (property === 'create' || property === 'createAudited') {
          return async (...args: Parameters<Store['createAudited']>) => {
            await waitIfHeld();
            if (failNext) {
              failNext = false;
              throw new Error('the database went away');
            }
            return property === 'create' ? target.create(args[0], args[1]) : target.createAudited(...args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return {
    store: wrap(store),
    /** Holds the next create; resolves once a request reached it, with the function that lets it go. */
    holdNextCreate(): Promise<() => void> {
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      return new Promise((reached) => {
        hold = { reached: () => reached(release), release: released };
      });
    },
    failNextCreate() {
      failNext = true;
    },
  };
}
