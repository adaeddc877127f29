// autocannon, typed for what the load benchmarks use of it (it ships no types), and how long each run
// lasts.
import { createRequire } from 'node:module';

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

export interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
}

export interface AutocannonRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

export interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
}

export const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: LoadLength & { url: string; connections: number; requests: AutocannonRequest[] },
) => PromiseLike<AutocannonResult>;
