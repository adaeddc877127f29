/**
 * Slows down repeated failed sign-ins for one account and address: after the first few failures, each
 * further attempt waits, twice as long after each failure, up to a ceiling, before it is even checked. A
 * success clears the count. Kept in memory: the prototype API is one process.
 */
export interface SignInThrottle {
  /** Whether an attempt may be checked now; if not, how many seconds to wait (for `Retry-After`). */
  check(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number };
  failed(key: string): void;
  succeeded(key: string): void;
}

export interface ThrottleOptions {
  /** Failures after which the next attempt waits (docs/prototype-api.md: three). */
  free?: number;
  /** The first wait, doubled with each further failure. */
  baseSeconds?: number;
  maxSeconds?: number;
  /** The clock, in milliseconds; tests move it. */
  now?: () => number;
}

/**
 * @example
 * ```ts
 * const throttle = createSignInThrottle();
 * for (let i = 0; i < 4; i++) throttle.failed('ann@example.com|127.0.0.1');
 * throttle.check('ann@example.com|127.0.0.1'); // { allowed: false, retryAfterSeconds: 2 }
 * ```
 */
export function createSignInThrottle(options: ThrottleOptions = {}): SignInThrottle {
  const free = options.free ?? 3;
  const base = options.baseSeconds ?? 1;
  const max = options.maxSeconds ?? 300;
  const now = options.now ?? Date.now;
  const failures = new Map<string, { count: number; until: number }>();
  return {
    check(key) {
      const entry = failures.get(key);
      const wait = entry ? Math.ceil((entry.until - now()) / 1000) : 0;
      return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
    },
    failed(key) {
      const count = (failures.get(key)?.count ?? 0) + 1;
      const seconds = count < free ? 0 : Math.min(max, base * 2 ** (count - free));
      failures.set(key, { count, until: now() + seconds * 1000 });
    },
    succeeded(key) {
      failures.delete(key);
    },
  };
}
