import type { SignInFailures } from '../store/shared-state';

/**
 * Slows down repeated failed sign-ins for one account and address: after the first few failures, each
 * further attempt waits, twice as long after each failure, up to a ceiling, before it is even checked. A
 * success clears the count. The counts live where every node of the API reads them (the database, see
 * `SharedState`), so that spreading attempts over nodes gains nothing.
 */
export interface SignInThrottle {
  /** Whether an attempt may be checked now; if not, how many seconds to wait (for `Retry-After`). */
  check(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
  failed(key: string): Promise<void>;
  succeeded(key: string): Promise<void>;
}

/** Where the counts are kept: `store.shared` in the server, a map in memory for a lone process. */
export interface FailureCounts {
  signInFailures(key: string): Promise<SignInFailures | undefined>;
  addSignInFailure(key: string, wait: (count: number) => number, now: number): Promise<void>;
  clearSignInFailures(key: string): Promise<void>;
}

export interface ThrottleOptions {
  /** Failures after which the next attempt waits (docs/prototype-api.md: three). */
  free?: number;
  /** The first wait, doubled with each further failure. */
  baseSeconds?: number;
  maxSeconds?: number;
  /** The clock, in milliseconds; tests move it. */
  now?: () => number;
  /** Where the counts live; in this process's memory by default. */
  counts?: FailureCounts;
}

/**
 * @example
 * ```ts
 * const throttle = createSignInThrottle({ counts: store.shared });
 * for (let i = 0; i < 4; i++) await throttle.failed('ann@example.com|127.0.0.1');
 * await throttle.check('ann@example.com|127.0.0.1'); // { allowed: false, retryAfterSeconds: 2 }
 * ```
 */
export function createSignInThrottle(options: ThrottleOptions = {}): SignInThrottle {
  const free = options.free ?? 3;
  const base = options.baseSeconds ?? 1;
  const max = options.maxSeconds ?? 300;
  const now = options.now ?? Date.now;
  const counts = options.counts ?? memoryCounts();
  const waitMs = (count: number) => (count < free ? 0 : Math.min(max, base * 2 ** (count - free)) * 1000);
  return {
    async check(key) {
      const entry = await counts.signInFailures(key);
      const wait = entry ? Math.ceil((entry.until - now()) / 1000) : 0;
      return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
    },
    failed: (key) => counts.addSignInFailure(key, waitMs, now()),
    succeeded: (key) => counts.clearSignInFailures(key),
  };
}

function memoryCounts(): FailureCounts {
  const failures = new Map<string, SignInFailures>();
  return {
    signInFailures: async (key) => failures.get(key),
    async addSignInFailure(key, wait, now) {
      const count = (failures.get(key)?.count ?? 0) + 1;
      failures.set(key, { count, until: now + wait(count) });
    },
    async clearSignInFailures(key) {
      failures.delete(key);
    },
  };
}
