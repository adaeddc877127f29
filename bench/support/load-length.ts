/** autocannon's two ways to end a run: after so many seconds, or after so many requests. */
export type LoadLength = { duration: number } | { amount: number };

/**
 * How long one autocannon run lasts: `seconds` when measuring. In a smoke run (BENCH_REQUESTS set), a
 * fixed number of requests instead: the smoke run checks that a benchmark still works, and a second of
 * load at each run kept both cores busy for most of bench-smoke's CPU.
 */
export function loadLength(seconds: number): LoadLength {
  const requests = Number(process.env.BENCH_REQUESTS);
  return Number.isSafeInteger(requests) && requests > 0 ? { amount: requests } : { duration: seconds };
}
