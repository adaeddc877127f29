// Reading an OpenAPI document never reads outside its own folder (or the root a person names): guards
// against `$ref: /etc/passwd`, `../outside/secret.yaml` and `/proc/self/environ` being read and turned
// into entities with exit 0, and against URL references being read as local paths. One fixture per way
// out: absolute paths, `..`, a sibling folder with the same prefix, a symbolic link, http, `//host` and
// `file:` URLs.
import { lstatSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAnySpec } from '../src/load-any-spec';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const folder = fileURLToPath(new URL('./fixtures/hostile-refs/', import.meta.url));
const document = `${folder}api/openapi.yaml`;
const text = readFileSync(document, 'utf8');
/** The line of each reference in the fixture, so that every refusal is checked at its position. */
const lineOf = (name: string) => text.split('\n').findIndex((line) => line.includes(`${name}:`)) + 1;

const WAYS_OUT = [
  'Passwd',
  'Environ',
  'Outside',
  'SamePrefix',
  'Linked',
  'Network',
  'ProtocolRelative',
  'FileUrl',
];

describe('an OpenAPI document whose $refs try to leave its folder', () => {
  it('the fixture really holds a symbolic link out of the folder', () => {
    expect(lstatSync(`${folder}api/link.yaml`).isSymbolicLink()).toBe(true);
  });

  it('reads the part inside its folder, and refuses every way out with an issue at its $ref', () => {
    const result = loadAnySpec(text, document);
    expect(result.ok).toBe(false);
    const refused = result.issues.filter((issue) => issue.code === 'refused-reference');
    expect(refused.map((issue) => issue.source?.line).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      WAYS_OUT.map(lineOf),
    );
    for (const issue of refused) expect(issue.severity).toBe('error');
    // Nothing of what lies outside became part of the model; the pet inside did.
    const json = JSON.stringify(result.model ?? {});
    expect(json).not.toContain('password');
    expect(json).not.toContain('root:x:0');
    // Its name may carry a number: `Pet` and the bundled `pet` name one table, so the second is `pet2`.
    const names = result.model?.entities.shown
      ? result.model.entities.items.map((entity) => entity.name)
      : [];
    expect(
      names.some((name) => /^pet\d*$/i.test(name)),
      names.join(', '),
    ).toBe(true);
  });

  it('with --root naming the parent folder, the sibling folders and the link may be read; absolute paths and URLs never', () => {
    const result = loadAnySpec(text, document, { root: folder });
    const refusedLines = result.issues
      .filter((issue) => issue.code === 'refused-reference')
      .map((issue) => issue.source?.line);
    expect(refusedLines.sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      ['Passwd', 'Environ', 'Network', 'ProtocolRelative', 'FileUrl'].map(lineOf),
    );
  });

  it('ninefold check and import exit 1 and say why, instead of exit 0 with the file read', async () => {
    for (const command of ['check', 'import']) {
      const terminal = bufferTerminal();
      const code = await main(
        [command, document, ...(command === 'import' ? ['-o', '/dev/null'] : [])],
        terminal,
      );
      expect(code, command).toBe(1);
      const said = terminal.stdout + terminal.stderr;
      expect(said, command).toContain('refused-reference');
      expect(said, command).toContain('/etc/passwd');
    }
  });
});
