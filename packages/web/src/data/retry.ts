import { ApiError, NetworkError } from './data-provider';

/** How the data layer tries a call again after a failure that may pass. */
export interface RetryOptions {
  /** Tries in all, the first one included; 1 never retries. */
  attempts?: number;
  /** The wait before the first retry; each next one doubles, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` the client waits for by itself. An answer that asks for longer is not
   * retried: it goes to the person, who sees it and may try again later, rather than a request that
   * hangs with nothing said.
   */
  maxRetryAfterMs?: number;
  /** Jitter in [0, 1): tests give a seeded one. */
  random?: () => number;
  /** Waits; tests give one that returns at once. It must reject when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told of every retry before its wait: for tests and figures. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  /** The try that failed, from 1. */
  attempt: number;
  delayMs: number;
  error: ApiError | NetworkError;
}

export const DEFAULT_RETRY: Required<Omit<RetryOptions, 'onRetry'>> = {
  attempts: 4,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 20_000,
  random: Math.random,
  sleep: sleepFor,
};

/** Statuses that say "not now" rather than "no": a gateway or server that failed, or too many requests. */
const PASSING_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/**
 * How long to wait before trying a failed call again, or undefined when it must not be tried again: only
 * failures that may pass are (no answer, a timeout, 408, 429, 500, 502, 503, 504, and the idempotency
 * replay's "still in progress"), and only while tries remain. A `Retry-After` is honoured exactly (never
 * sooner), within `maxRetryAfterMs`; otherwise the wait doubles from `baseDelayMs` with jitter, so that
 * many clients failed at once do not come back at once.
 *
 * @example
 * retryDelay(new NetworkError('offline'), 1, { random: () => 0.5 }) // 225 (half of 300, plus half of that)
 */
export function retryDelay(error: unknown, attempt: number, options: RetryOptions = {}): number | undefined {
  const settings = { ...DEFAULT_RETRY, ...options };
  if (attempt >= settings.attempts) return undefined;
  if (error instanceof ApiError) {
    const passing =
      PASSING_STATUSES.has(error.status) ||
      (error.status === 409 && error.code === 'IDEMPOTENCY_IN_PROGRESS');
    if (!passing) return undefined;
    if (error.retryAfterSeconds !== undefined) {
      const asked = error.retryAfterSeconds * 1000;
      return asked > settings.maxRetryAfterMs ? undefined : asked;
    }
  } else if (!(error instanceof NetworkError)) {
    return undefined;
  }
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  // "Equal jitter": at least half the backoff, so that a retry never comes back at once.
  return Math.round(ceiling / 2 + (settings.random() * ceiling) / 2);
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the tries run out, waiting between tries as
 * `retryDelay` says. The caller's abort stops the waiting at once.
 *
 * @example
 * ```ts
 * const answer = await withRetries((n) => send(n), { signal, attempts: 3 });
 * ```
 */
export async function withRetries<T>(
  attempt: (number: number) => Promise<T>,
  options: RetryOptions & { signal?: AbortSignal } = {},
): Promise<T> {
  const sleep = options.sleep ?? DEFAULT_RETRY.sleep;
  for (let number = 1; ; number += 1) {
    try {
      return await attempt(number);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      const delay = retryDelay(error, number, options);
      if (delay === undefined) throw error;
      options.onRetry?.({ attempt: number, delayMs: delay, error: error as ApiError | NetworkError });
      await sleep(delay, options.signal);
    }
  }
}

/** `setTimeout` as a promise that rejects with the signal's reason when it aborts. */
export function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
