import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// scripts/run-ts.mjs runs the benchmarks in the suite's smoke runs in place of tsx: the script must see
// itself as tsx shows it (its address, its arguments, its folder), load both npm's packages and the
// workspace's TypeScript ones, and fail with its source's line.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SCRIPT = join(ROOT, 'test/fixtures/run-ts/script.ts');
const run = promisify(execFile);
const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith('ninefold-run-ts-'));

describe('scripts/run-ts.mjs', () => {
  it('runs a script as its own source, with its arguments, npm’s packages and the workspace’s', async () => {
    const before = leftovers();
    const { stdout } = await run(process.execPath, ['scripts/run-ts.mjs', SCRIPT, 'one', 'two'], {
      cwd: ROOT,
    });
    expect(JSON.parse(stdout)).toEqual({
      url: pathToFileURL(SCRIPT).href,
      dirname: join(ROOT, 'test/fixtures/run-ts'),
      filename: SCRIPT,
      argv: [SCRIPT, 'one', 'two'],
      fromNpm: { answer: 42 },
      fromTheWorkspace: 'did you mean "color"?',
      sibling: SCRIPT,
    });
    // The bundle it ran is gone once the script is.
    expect(leftovers()).toEqual(before);
  });

  it('fails as the script fails, naming the source’s line, and leaves no bundle behind', async () => {
    const before = leftovers();
    const failed = await run(process.execPath, ['scripts/run-ts.mjs', SCRIPT, '--fail'], { cwd: ROOT }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`${SCRIPT}:6`);
    expect(failed?.stderr).toContain('failed on purpose');
    expect(leftovers()).toEqual(before);
  });

  it('leaves no bundle behind when the script ends the process itself', async () => {
    const before = leftovers();
    const exited = await run(process.execPath, ['scripts/run-ts.mjs', SCRIPT, '--exit'], { cwd: ROOT }).then(
      () => undefined,
      (error: { code: number }) => error,
    );
    expect(exited?.code).toBe(3);
    expect(leftovers()).toEqual(before);
  });

  it('says how to use it when no script is named', async () => {
    const failed = await run(process.execPath, ['scripts/run-ts.mjs'], { cwd: ROOT }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('Usage: node scripts/run-ts.mjs FILE');
  });
});
