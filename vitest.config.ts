import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.ts';

/**
 * Node tests that run whole processes (the command, its builds, benchmarks' smoke runs, the fuzzing pool):
 * a project of their own, so that `npm run test:quick` can leave them to `npm test`.
 */
const WHOLE_PROCESSES = [
  'packages/cli/test/**/*.test.ts',
  'test/bench-smoke*.test.ts',
  'test/run-ts.test.ts',
  'test/fuzz/**/*.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    // The suite runs on a shared two-core machine; generous limits keep slow neighbours from failing it.
    testTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: on two cores, one, and the whole suite ran in
    // series. Any files run side by side, e2e ones too: each PostgreSQL suite has its own schema, each
    // server and browser its own port and profile, and one build of the web runtime at a time is made
    // under a lock. Three on two cores filled a fast machine's idle fifth (609-632 -> 564 s). On a machine
    // whose Chromium ran twice as slowly they oversubscribed it: 9 to 13 processes waiting on two cores,
    // a third of the time in the kernel, 1,358 to 1,400 s, and in each of two runs a browser test's
    // 30 s wait ran out (each passed alone). Two, so that a slow machine's run is slow, not flaky.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['packages/web/**', ...WHOLE_PROCESSES],
          // Files share a worker's loaded modules instead of loading them again each (a third of the
          // suite's time went to imports); no test here leans on a module's state being fresh.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: WHOLE_PROCESSES,
          isolate: false,
        },
      },
      {
        extends: true,
        // Every override point is in the code under test (vite.config.ts defines this per build).
        define: { __NINEFOLD_EXTENSION__: 'true' },
        test: {
          name: 'web',
          include: ['packages/web/test/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          // As for node: Mantine, React and the rest load once per worker, not once per file.
          isolate: false,
          setupFiles: ['packages/web/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          // Playwright and the packages some files import load once per worker: on twelve files, imports
          // fell from 9.1 to 2.0 s and the run from 71.7 to 65.6 s. Each file starts its own servers and
          // browser, and one that needs an environment of its own passes it to them (startNinefold's env).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
