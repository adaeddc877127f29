import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** How many of the slowest files the summary names. */
const SLOWEST = 15;

/**
 * Ends the run with the files that took longest (issue 17: the suite must stay under 10 minutes, so each
 * issue should see what its tests cost), then one plain line, "N passed, N failed, N skipped", which CI
 * reads to tell a run that tested something from one that ran nothing.
 */
export default class SummaryReporter implements Reporter {
  /** When each file started, from the run's start: with its time, the run's schedule (what ran beside what). */
  private readonly startedAt = new Map<string, number>();
  private readonly runStart = Date.now();

  /** How many files run at a time, for the summary's line. */
  private workers: number | string | undefined;

  onInit(vitest: Vitest): void {
    this.workers = vitest.config.maxWorkers;
  }

  onTestModuleStart(module: TestModule): void {
    this.startedAt.set(module.moduleId, Date.now() - this.runStart);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that fails to load has no tests but must still count as a failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    const durations = testModules
      .map((module) => ({
        file: module.moduleId.replace(`${process.cwd()}/`, ''),
        ms: module.diagnostic().duration,
        startMs: this.startedAt.get(module.moduleId),
      }))
      .sort((a, b) => b.ms - a.ms);
    // Every file's time, for whoever trims the suite next (the summary names only the slowest).
    const everyFile = process.env.NINEFOLD_DURATIONS;
    if (everyFile) writeFileSync(everyFile, `${JSON.stringify(durations, null, 1)}\n`);
    const total = durations.reduce((sum, entry) => sum + entry.ms, 0);
    const lines = durations
      .slice(0, SLOWEST)
      .map((entry) => `  ${(entry.ms / 1000).toFixed(1).padStart(6)} s  ${entry.file}`);
    process.stdout.write(
      `\nThe ${Math.min(SLOWEST, durations.length)} slowest of ${durations.length} files (${(total / 1000).toFixed(0)} s in all, up to ${this.workers ?? 'several'} at a time):\n${lines.join('\n')}\n`,
    );
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
