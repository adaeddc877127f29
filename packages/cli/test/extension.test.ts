import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BUILD_DIR, problemOf } from '@ninefold/web/extension-module';
import { describe, expect, it } from 'vitest';
import { firstMention } from '../src/extension-check';
import { candidates, extensionFile } from '../src/extension-file';
import { moduleIssue } from '../src/module-issue';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/ninefold.js');
const run = promisify(execFile);
const FIXTURE = join(root, 'test/fixtures/extension');

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

/** A folder with the tool library's specification and the given files beside it. */
function library(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-ext-'));
  copyFileSync(join(FIXTURE, 'tool-library.yaml'), join(dir, 'library.yaml'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return join(dir, 'library.yaml');
}

describe('finding the extension module', () => {
  it('takes --ui, else SPEC.ui.tsx or ui/index.tsx beside the specification, and refuses two', async () => {
    const spec = library({});
    expect(await extensionFile(spec, undefined)).toEqual({ ok: true, file: undefined });
    expect(candidates(spec).map((file) => relative(dirname(spec), file))).toEqual([
      'library.ui.tsx',
      'ui/index.tsx',
    ]);
    const beside = library({ 'library.ui.tsx': 'export default {};\n' });
    expect(await extensionFile(beside, undefined)).toEqual({
      ok: true,
      file: join(beside, '../library.ui.tsx'),
    });
    const folder = library({ 'ui/index.tsx': 'export default {};\n' });
    expect(await extensionFile(folder, undefined)).toEqual({
      ok: true,
      file: join(folder, '../ui/index.tsx'),
    });
    const both = library({ 'library.ui.tsx': '', 'ui/index.tsx': '' });
    const refused = await extensionFile(both, undefined);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toMatch(
      /two extension modules sit beside the specification .*name one with --ui/,
    );
    expect(await extensionFile(both, join(both, '../ui/index.tsx'))).toEqual({
      ok: true,
      file: join(both, '../ui/index.tsx'),
    });
  });

  it('says what is wrong with a --ui that cannot be one', async () => {
    const spec = library({ 'notes.md': '# not code\n' });
    expect(await extensionFile(spec, join(spec, '../missing.tsx'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/does not exist/),
    });
    expect(await extensionFile(spec, join(spec, '..'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/is not a file/),
    });
    expect(await extensionFile(spec, join(spec, '../notes.md'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/is not a TypeScript or JavaScript module/),
    });
  });
});

describe('positions in the extension', () => {
  it('finds a name where it is written as a key or a string, before any other mention', () => {
    const texts = new Map([
      ['/a/helper.tsx', 'const note = "Order is fine";\n'],
      [
        '/a/index.tsx',
        "import x from './helper';\nexport default {\n  slots: { detailAside: { Order: Aside } },\n};\n",
      ],
    ]);
    expect(firstMention(texts, 'Order')).toEqual({ file: '/a/index.tsx', line: 3, column: 27 });
    expect(firstMention(texts, 'fine')).toEqual({ file: '/a/helper.tsx', line: 1, column: 24 });
    expect(firstMention(texts, 'Invoice')).toBeUndefined();
  });

  it("reads a failed build's place and words, without the terminal's colours or a stack", () => {
    const esc = String.fromCharCode(27);
    const error = new Error(
      `the web client could not be built (vite exited with 1):\n${esc}[31m[PARSE_ERROR]${esc}[0m Unexpected token\n  /tmp/x/library.ui.tsx:4:3\n    at transform (node_modules/vite/dist/node.js:1:1)`,
    );
    const issue = moduleIssue(problemOf(error, '/tmp/x/library.ui.tsx', BUILD_DIR), 'extension-build');
    expect(issue).toEqual({
      severity: 'error',
      code: 'extension-build',
      message: 'The extension module could not be built: [PARSE_ERROR] Unexpected token',
      source: expect.stringMatching(/library\.ui\.tsx:4:3$/),
    });
  });
});

// Each check type-checks the module with TypeScript's compiler (its JavaScript API, in the process): 10 to
// 15 s alone, and past the default 30 s once on a two-core machine running the browser tests beside it.
describe('ninefold check with an extension (real process)', { timeout: 60_000 }, () => {
  it('passes the tool library with the extension beside it, which provides its widget', async () => {
    const result = await ninefold('check', 'test/fixtures/extension/tool-library.yaml');
    expect(result.stdout.trim()).toBe('coverage: 7 of 9 points shown (not shown: 8 errors, 9 constants)');
    expect(result.code).toBe(0);
  });

  it('reports names the specification no longer has, at both files, and type errors, with exit 1', async () => {
    const spec = library({
      'library.ui.tsx': [
        "import { defineExtension } from '@ninefold/web/extension';",
        '',
        'export default defineExtension({',
        "  fields: { fields: { 'Tool.colour': { display: () => null } } },",
        '  slots: { detailAside: { Toll: () => null } },',
        "  actions: { fix: { entity: 'Tool', label: 'Fix', call: 'fixTool' } },",
        '  theme: { radius: "round" },',
        '});',
        '',
      ].join('\n'),
    });
    const result = await ninefold('check', spec);
    const lines = result.stdout.split('\n');
    const at = (pattern: RegExp) => lines.find((line) => pattern.test(line)) ?? '';
    expect(at(/not assignable/)).toMatch(
      /library\.ui\.tsx:7:12 +error +The extension module: Type 'string' is not assignable to type 'number'.*extension-error$/,
    );
    expect(at(/Tool\.colour/)).toMatch(
      /library\.ui\.tsx:4:23 +warning +The extension overrides Tool\.colour, but Tool has no field colour\..*unknown-override$/,
    );
    expect(at(/Toll/)).toMatch(
      /library\.ui\.tsx:5:27 +warning +The extension fills the detailAside slot of Toll/,
    );
    expect(at(/fixTool/)).toMatch(/library\.ui\.tsx:6:.* runs the call fixTool, which point 7 does not have/);
    // What the specification names and the extension lacks is placed in the specification.
    expect(at(/widget "stars"/)).toMatch(
      /library\.yaml:\d+:\d+ +warning +Tool\.rating names the widget "stars", which the extension does not provide/,
    );
    expect(at(/ShelfLabel/)).toMatch(
      /library\.yaml:\d+:\d+ +warning +The custom screen tool-label names the component ShelfLabel/,
    );
    expect(result.code).toBe(1);
  });

  it('reports a module that does not build at its line, and a --ui that is missing with exit 2', async () => {
    const spec = library({ 'library.ui.tsx': 'export default {\n  screens: { ]\n};\n' });
    const broken = await ninefold('check', spec);
    expect(broken.stdout).toMatch(/library\.ui\.tsx:2:\d+ +error +The extension module: .*extension-error/);
    expect(broken.code).toBe(1);
    const missing = await ninefold('check', spec, '--ui', 'nowhere.tsx');
    expect(missing.stderr).toBe('ninefold check: --ui: nowhere.tsx does not exist.\n');
    expect(missing.code).toBe(2);
  });
});

describe('ninefold diff (real process)', () => {
  it('says what a change does to screens, fields and permissions, the database, and the extension', async () => {
    const old = library({
      'library.ui.tsx': [
        "import { defineExtension } from '@ninefold/web/extension';",
        '',
        'export default defineExtension({',
        "  fields: { widgets: { stars: { display: () => null } }, fields: { 'Tool.notes': { display: () => null } } },",
        '  screens: { ShelfLabel: () => null },',
        '});',
        '',
      ].join('\n'),
    });
    const next = join(dirname(old), 'library-next.yaml');
    const text = readFileSync(old, 'utf8')
      .replace('      notes: { kind: text }\n', '')
      .replace('rating: { kind: integer,', 'rating: { kind: number,')
      .replace(
        'member: { label: Member, can: { Tool: [read], Loan: [read] } }',
        'member: { label: Member, can: { Tool: [read, update], Loan: [read] } }',
      );
    writeFileSync(next, text);
    const result = await ninefold('diff', old, next, '--ui', join(dirname(old), 'library.ui.tsx'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('Fields\n  - Tool.notes\n  ~ Tool.rating: type integer → number\n');
    expect(out).toContain('Permissions\n  ~ member on Tool: actions read → read, update\n');
    expect(out).toContain('! drop column "notes" (text) from "Tool": its values are lost');
    expect(out).toMatch(/serve refuses these 2 steps \(marked !\)/);
    expect(out).toMatch(
      /library\.ui\.tsx:4:\d+ +The extension overrides Tool\.notes, but Tool has no field notes\./,
    );

    const json = await ninefold(
      'diff',
      old,
      next,
      '--ui',
      join(dirname(old), 'library.ui.tsx'),
      '--format',
      'json',
    );
    const parsed = JSON.parse(json.stdout) as {
      changes: Array<{ area: string; change: string; name: string }>;
      migration: { refusedWithoutAllowDestructive: boolean; destructive: unknown[] };
      extension: { orphaned: Array<{ code: string; line: number }> };
    };
    expect(parsed.changes.map((change) => `${change.area} ${change.change} ${change.name}`)).toEqual([
      'field removed Tool.notes',
      'field changed Tool.rating',
      'permission changed member on Tool',
    ]);
    expect(parsed.migration.refusedWithoutAllowDestructive).toBe(true);
    expect(parsed.extension.orphaned).toEqual([
      expect.objectContaining({ code: 'unknown-override', line: 4 }),
    ]);
  }, 60_000);

  it('says when no extension module was held against the change, rather than leaving it out in silence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-diff-alone-'));
    const spec = join(dir, 'shop.md');
    copyFileSync(join(root, 'examples/shop.md'), spec);
    const result = await ninefold('diff', spec, spec);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`No extension module beside ${spec}`);
    expect(result.stdout).toContain('--ui FILE holds one against the change');
  }, 60_000);

  it('refuses a specification with errors, and says the same of two that say the same', async () => {
    const spec = library({});
    const same = await ninefold('diff', spec, spec);
    expect(same.stdout).toContain('The two specifications say the same.');
    expect(same.stdout).toContain("The prototype API's database\n  nothing to change\n");
    const broken = join(dirname(spec), 'broken.yaml');
    writeFileSync(broken, 'title: Broken\nscreens: { a: { kind: list, route: /a, entity: Nope } }\n');
    const refused = await ninefold('diff', spec, broken);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/broken\.yaml has errors; fix them first/);
  }, 60_000);
});
