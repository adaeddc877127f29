import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

/**
 * A folder for extension modules beside the repository's node_modules (in its cache), so that React,
 * the client and their types resolve as they do for a team's module in a workspace, type-checked with
 * the client's own settings. `include` names the modules checked, the folder's own by default.
 */
export function typedWorkspace(include: readonly string[] = ['*.ts', '*.tsx']): string {
  const base = join(root, 'node_modules/.cache/ninefold-types-test');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'module-'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(dir, join(root, 'packages/web/tsconfig.json')),
      compilerOptions: { noEmit: true },
      include,
    }),
  );
  return dir;
}

/** TypeScript's errors for the folder's modules (TypeScript 7, as the project's type check runs it). */
export async function typeErrors(dir: string): Promise<string[]> {
  try {
    await run(process.execPath, [join(root, 'node_modules/typescript-go/bin/tsc'), '-p', dir], { cwd: dir });
    return [];
  } catch (error) {
    const { stdout } = error as { stdout: string };
    return stdout.split('\n').filter((line) => line.includes('error TS'));
  }
}
