import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDiagnostics, typeCheckExtension } from '@ninefold/web/extension-types';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(
  new URL('../../../test/fixtures/extension/tool-library.ui.tsx', import.meta.url),
);

/** The tool library's module with two type errors put into its first component, at known places. */
function brokenModule(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-types-test-'));
  const text = readFileSync(FIXTURE, 'utf8').replace(
    'const count = Number(value);',
    'const count: string = Number(value); const other: Missing = 1;',
  );
  const file = join(dir, 'library.ui.tsx');
  writeFileSync(file, text);
  return file;
}

describe("an extension module's type check", () => {
  it('finds nothing in the tool library', async () => {
    expect(await typeCheckExtension(FIXTURE)).toEqual([]);
  }, 60_000);

  it("places each error in the team's file", async () => {
    const file = brokenModule();
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((text) => text.includes('Missing')) + 1;
    const native = await typeCheckExtension(file);
    const places = (problems: typeof native) =>
      (problems ?? []).map(({ file, line, column }) => ({ file, line, column }));
    expect(places(native)).toContainEqual({ file, line, column: 9 });
    expect(native?.find((problem) => problem.column === 9)?.message).toBe(
      "Type 'number' is not assignable to type 'string'.",
    );
    expect(native?.some((problem) => problem.line === line && problem.message.includes("'Missing'"))).toBe(
      true,
    );
  }, 60_000);

  it("reads the compiler's lines: a chain's indented lines join its message, and an unplaced error is the module's", () => {
    const output = [
      "ui.tsx(3,7): error TS2322: Type '{ a: number; }' is not assignable to type 'B'.",
      "  Property 'b' is missing in type '{ a: number; }' but required in type 'B'.",
      "error TS5023: Unknown compiler option 'foo'.",
      '',
    ].join('\n');
    expect(parseDiagnostics(output, '/team', '/team/ui.tsx')).toEqual([
      {
        message:
          "Type '{ a: number; }' is not assignable to type 'B'. Property 'b' is missing in type '{ a: number; }' but required in type 'B'.",
        file: '/team/ui.tsx',
        line: 3,
        column: 7,
      },
      { message: "Unknown compiler option 'foo'.", file: '/team/ui.tsx' },
    ]);
  });
});
