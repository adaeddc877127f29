import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    // The suite runs on a shared two-core machine; generous limits keep slow neighbours from failing it.
    testTimeout: 30_000,
  },
});
