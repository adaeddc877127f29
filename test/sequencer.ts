import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first, as the suite's summary printed them on a fresh clone. A
 * fresh clone has no timings of a last run for Vitest to sort by, so it ordered files by size, and a
 * slow file that started late ran alone on one worker while the others had finished: the longest first
 * and the many short ones after keep every worker busy to the end.
 */
const LONGEST_FIRST = [
  /e2e[\\/]bench-client-smoke\.test\.ts$/,
  /e2e[\\/]openapi-ui-corpus\.test\.ts$/,
  /e2e[\\/]library\.test\.ts$/,
  /packages[\\/]cli[\\/]test[\\/]crash-exactly-once\.test\.ts$/,
  /e2e[\\/]resilience\.test\.ts$/,
  /e2e[\\/]extension-dev\.test\.ts$/,
  /test[\\/]bench-smoke\.test\.ts$/,
  /packages[\\/]cli[\\/]test[\\/]extension\.test\.ts$/,
  /test[\\/]fuzz[\\/]fuzz\.test\.ts$/,
  /e2e[\\/]gallery\.test\.ts$/,
  /e2e[\\/]feedback\.test\.ts$/,
  /e2e[\\/]crud\.test\.ts$/,
];

/**
 * Files whose servers are installed in the background from the start (e2e/support/global-setup.ts): they
 * go once the longest files have started, by when the installs are done, and never first, where they
 * held a worker idle for minutes while npm downloaded. Not last either, where they ran alone. (The
 * browser benchmarks' smoke run goes first all the same: its wait on its peers' installs leaves the CPU
 * to them. Put after the longest files, the library's build and the crash test ran beside the installs
 * instead, and two fresh-clone runs took 730 s where the suite had taken 661.)
 */
const AFTER_THEIR_INSTALLS = [/e2e[\\/]real-servers\.test\.ts$/];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) =>
      LONGEST_FIRST.findIndex((pattern) => pattern.test(file.moduleId));
    const waitRank = (file: TestSpecification) =>
      AFTER_THEIR_INSTALLS.findIndex((pattern) => pattern.test(file.moduleId));
    const waits = (file: TestSpecification) => waitRank(file) >= 0;
    const longest = sorted.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b));
    const rest = sorted.filter((file) => rank(file) < 0 && !waits(file));
    return [...longest, ...sorted.filter(waits).sort((a, b) => waitRank(a) - waitRank(b)), ...rest];
  }
}
