// The statistics every benchmark reports: medians of interleaved runs, and percentiles for latencies.
import { fileURLToPath } from 'node:url';

/**
 * Where results are written: bench/results/, or BENCH_RESULTS (the smoke runs of the test suite write to
 * a temporary directory, so that they never overwrite a measurement).
 */
export const RESULTS_DIR = `${(process.env.BENCH_RESULTS ?? fileURLToPath(new URL('../results/', import.meta.url))).replace(/\/+$/, '')}/`;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}
