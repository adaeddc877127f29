// What every command prints, looked for everywhere rather than where a surprise was found (issue 19):
// the help of each command in one shape, and no command with a stack trace when whoever reads its output
// has stopped reading (`ninefold check bad.md | head -1`).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusPath } from '../../openapi/test/support/corpus';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/ninefold.js');
const COMMANDS = ['check', 'import', 'dev', 'build', 'serve', 'diff', 'openapi', 'types', 'verify'] as const;
/** The widest line of a help text, as the help texts are written. */
const HELP_WIDTH = 105;

async function help(...args: string[]): Promise<string> {
  const terminal = bufferTerminal();
  expect(await main(args, terminal)).toBe(0);
  expect(terminal.stderr).toBe('');
  return terminal.stdout;
}

describe('the help of every command', () => {
  const invocations: string[][] = [[], ...COMMANDS.map((command) => [command])];
  it.each(invocations.map((command) => [command]))(
    'ninefold %s --help keeps to its width, with no trailing spaces',
    async (command) => {
      const text = await help(...command, '--help');
      expect(text.startsWith(`Usage: ninefold ${command.length > 0 ? `${command[0]} ` : ''}`)).toBe(true);
      for (const line of text.split('\n')) {
        expect(line.length, line).toBeLessThanOrEqual(HELP_WIDTH);
        expect(line, 'a trailing space').not.toMatch(/ $/);
      }
    },
  );

  it('lists each command once, its description starting in one column', async () => {
    const text = await help('--help');
    const rows = text.split('\n').filter((line) => /^ {2}[a-z]+ /.test(line));
    expect(rows.map((line) => line.trim().split(' ')[0])).toEqual([...COMMANDS]);
    // The column where a description that goes on to a second line goes on: every description starts there.
    const continued = text.split('\n').find((line) => /^ {10,}\S/.test(line)) ?? '';
    const column = continued.search(/\S/);
    expect(column).toBeGreaterThan(10);
    for (const row of rows)
      expect([row.slice(column - 2, column), row.charAt(column)], row).toEqual([
        '  ',
        expect.stringMatching(/\S/),
      ]);
  });
});

function tempFile(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ninefold-output-')), name);
  writeFileSync(file, content);
  return file;
}

/** Runs the command with its output closed before it writes a line; what it says on stderr, and its code. */
function withClosedOutput(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // As `| head -0` would: nobody reads what the command prints.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

// Twelve processes of about a second each: side by side.
describe.concurrent('every command, when whoever reads its output has stopped reading', () => {
  const broken = tempFile('broken.yaml', 'title: Broken\nproduct:\n  nonsense: yes\n');
  const cases: Array<[string, string[], number]> = [
    ['the help', ['--help'], 0],
    ...COMMANDS.map((command): [string, string[], number] => [`${command}'s help`, [command, '--help'], 0]),
    ['an unknown command', ['chek'], 2],
    ['check of a good specification', ['check', 'examples/shop.md'], 0],
    ['check of a broken one', ['check', broken], 1],
    ['diff', ['diff', 'examples/shop.md', 'examples/shop.yaml'], 0],
  ];
  if (CORPUS)
    cases.push(['import to standard output', ['import', corpusPath('apis-guru/1forge.com.json')], 0]);

  it.each(cases)('%s exits as it would, without a stack trace', async (_what, args, code) => {
    const result = await withClosedOutput(args);
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(result.code).toBe(code);
  });
});
