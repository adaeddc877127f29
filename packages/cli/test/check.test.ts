import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusPath } from '../../openapi/test/support/corpus';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/ninefold.js');
const run = promisify(execFile);

/** Runs the real command in its own process, as a person or CI would. */
async function ninefold(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function tempFile(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-check-'));
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('ninefold check (real process)', () => {
  // Issue 19: `ninefold check bad.md | head -1` printed a 27-line stack trace (Unhandled 'error' event,
  // EPIPE) once the reader had closed the pipe.
  it('stops quietly when whoever reads its output stops reading', async () => {
    const keys = Array.from({ length: 2_000 }, (_, n) => `  unknownKey${n}: x`).join('\n');
    const file = tempFile('many.yaml', `title: Many\nproduct:\n${keys}\n`);
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [bin, 'check', file], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Read one chunk, then close the pipe, as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\.ts:/);
    expect(code).toBe(1);
  });

  it('passes the rich Markdown example: exit 0 and 9 of 9 points', async () => {
    const result = await ninefold('check', 'examples/shop.md');
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('coverage: 9 of 9 points shown');
    expect(result.code).toBe(0);
  });

  it('passes the all-not-shown example: exit 0 and 0 of 9 points', async () => {
    const result = await ninefold('check', 'examples/empty.md');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(
      'coverage: 0 of 9 points shown (not shown: 1 product, 2 screens, 3 entities, 4 states, 5 validation, 6 roles, 7 calls, 8 errors, 9 constants)',
    );
  });

  it('prints only JSON on stdout with --format json, and exits 1 on errors', async () => {
    const file = tempFile(
      'broken.yaml',
      'title: Broken\nscreens:\n  orders: { kind: list, route: /orders, entity: Ordr }\nentities:\n  Order:\n    fields:\n      id: { kind: integer }\n',
    );
    const result = await ninefold('check', file, '--format', 'json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.coverage).toEqual({
      shown: ['screens', 'entities'],
      notShown: ['product', 'states', 'validation', 'roles', 'calls', 'errors', 'constants'],
    });
    const unknown = report.issues.find((issue: { code: string }) => issue.code === 'unknown-reference');
    expect(unknown).toMatchObject({ severity: 'error', file, line: 3, hint: 'did you mean "Order"?' });
    expect(unknown.column).toBeGreaterThan(40);
    for (const issue of report.issues) {
      expect(Object.keys(issue)).toEqual(
        expect.arrayContaining(['code', 'severity', 'message', 'file', 'line', 'column']),
      );
    }
  });

  it('exits 2 when the file cannot be read', async () => {
    const result = await ninefold('check', 'examples/does-not-exist.md');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not exist');
    expect(result.stdout).toBe('');
  });
});

describe('ninefold check (in process)', () => {
  it('reports text issues as file:line:column with the hint and a summary', async () => {
    const file = tempFile('typo.yaml', 'title: T\nproduct:\n  sumary: Orders\n');
    const terminal = bufferTerminal();
    expect(await main(['check', file], terminal)).toBe(1);
    expect(terminal.stdout).toContain(`${file}:3:3  error   product: "sumary" is not a known key here.`);
    expect(terminal.stdout).toContain('did you mean "summary"?');
    expect(terminal.stdout).toMatch(/1 error, \d+ warnings?/);
    expect(terminal.stdout).toContain('coverage: unknown');
  });

  it('exits 1 for a binary file, with one issue and no stack trace', async () => {
    const file = tempFile('image.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0xff, 0xfe]));
    const terminal = bufferTerminal();
    expect(await main(['check', file, '--format', 'json'], terminal)).toBe(1);
    const report = JSON.parse(terminal.stdout);
    expect(report.issues).toHaveLength(1);
    expect(report.issues[0]).toMatchObject({ code: 'binary-file', line: 1, column: 1 });
    expect(terminal.stderr).toBe('');
  });

  // GitHub's description (12.4 MB) was refused by a file limit of 4 MB meant for nine-point specifications,
  // so `serve` could not serve it; each loader holds its text to its own limit.
  it.skipIf(CORPUS === undefined)(
    'reads an OpenAPI document past 4 MB, and still refuses a nine-point specification past it',
    async () => {
      const github = corpusPath('github/api.github.com.octokit-23.0.2.json');
      const terminal = bufferTerminal();
      expect(await main(['check', github], terminal)).toBe(0);
      expect(terminal.stdout).toContain('0 errors');
      const big = tempFile('big.yaml', `title: ${'a'.repeat(5 * 1024 * 1024)}\n`);
      const refused = bufferTerminal();
      expect(await main(['check', big], refused)).toBe(1);
      expect(refused.stdout).toMatch(
        /big\.yaml:1:1 +error +The file is 5\.0 MiB; a YAML or JSON specification may be at most 4\.0 MiB/,
      );
    },
  );

  it('exits 2 for a directory and for misuse, and prints help', async () => {
    const terminal = bufferTerminal();
    expect(await main(['check', root], terminal)).toBe(2);
    expect(terminal.stderr).toContain('is a directory');
    expect(await main(['check'], terminal)).toBe(2);
    expect(await main(['check', 'a', '--format', 'xml'], terminal)).toBe(2);
    expect(await main(['check', 'a', '--bogus'], terminal)).toBe(2);
    const help = bufferTerminal();
    expect(await main(['check', '--help'], help)).toBe(0);
    expect(help.stdout).toContain('Usage: ninefold check SPEC');
  });

  it('says plainly that a command does not exist', async () => {
    const terminal = bufferTerminal();
    expect(await main(['frobnicate'], terminal)).toBe(2);
    expect(terminal.stderr).toContain('unknown command "frobnicate"');
  });
});
