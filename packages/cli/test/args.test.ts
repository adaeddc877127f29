import { describe, expect, it } from 'vitest';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

// Every misuse of the command line is said in our words, with the closest known name where one is close.
describe('a command line used wrongly', () => {
  it('names the command meant for a misspelt one, in two lines, exit 2', async () => {
    const terminal = bufferTerminal();
    expect(await main(['chek', 'shop.md'], terminal)).toBe(2);
    expect(terminal.stderr).toBe(
      'ninefold: unknown command "chek"; did you mean "check"?\nRun "ninefold --help" for the commands.\n',
    );
    const far = bufferTerminal();
    expect(await main(['toString'], far)).toBe(2);
    expect(far.stderr).toContain('unknown command "toString"\n');
  });

  // Each command's options, misspelt, missing a value, or given one they do not take.
  it.each([
    [
      ['check', 'a.md', '--frmat', 'json'],
      'ninefold check: unknown option "--frmat"; did you mean "--format"?',
    ],
    [['serve', 'a.md', '--prot', '3000'], 'ninefold serve: unknown option "--prot"; did you mean "--port"?'],
    [['serve', 'a.md', '--port'], 'ninefold serve: option "--port" needs a value'],
    [['dev', 'a.md', '--api'], 'ninefold dev: option "--api" needs a value'],
    [['build', 'a.md', '--outt', 'dist'], 'ninefold build: unknown option "--outt"; did you mean "--out"?'],
    [
      ['import', 'a.yaml', '--formt', 'yaml'],
      'ninefold import: unknown option "--formt"; did you mean "--format"?',
    ],
    [['diff', 'a.md', 'b.md', '--help=yes'], 'ninefold diff: option "--help" takes no value'],
    [['check', 'a.md', '--zzzzzz'], 'ninefold check: unknown option "--zzzzzz"\n'],
    // A negative number is the option's value, and wrong as a value: not an option with none.
    [
      ['serve', 'examples/shop.md', '--seed', '-3'],
      'ninefold serve: --seed must be a whole number, not "-3".',
    ],
    [['dev', 'examples/shop.md', '--port', '-1'], 'ninefold dev: --port must be a whole number, not "-1".'],
    // A database Ninefold does not speak is not taken for a SQLite file's name; its password is not repeated.
    [
      ['serve', 'examples/shop.md', '--db', 'mysql://admin:secret@db/shop'],
      'ninefold serve: --db takes a SQLite file (or sqlite:PATH) or a postgres:// URL; "mysql://" is neither.',
    ],
    [['dev', 'examples/shop.md', '--db', 'mongodb://db/shop'], '"mongodb://" is neither.'],
  ])('%j', async (argv, said) => {
    const terminal = bufferTerminal();
    expect(await main(argv, terminal)).toBe(2);
    expect(terminal.stderr).toContain(said);
    // Never Node's own wording.
    expect(terminal.stderr).not.toMatch(/positional argument|Unknown option '|argument missing|:secret@/);
  });
});
