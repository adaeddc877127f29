import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (the slowest files first, from the last run's times), except that the files whose
 * servers are installed in the background at the start (e2e/support/global-setup.ts) go last: run first,
 * they held a worker idle for minutes while npm downloaded.
 */
const AFTER_THEIR_INSTALLS = [/e2e[\\/]real-servers\.test\.ts$/];

export default class InstallsLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification) =>
      AFTER_THEIR_INSTALLS.some((pattern) => pattern.test(file.moduleId));
    return [...sorted.filter((file) => !waits(file)), ...sorted.filter(waits)];
  }
}
