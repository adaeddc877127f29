// `ninefold types SPEC`: an extension module typed with the names it writes compiles against its
// specification, and a field renamed or a transition removed there is a compile error at its use in the
// module, found by TypeScript itself (TypeScript 7, as the project's type check runs it).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { typedWorkspace, typeErrors } from './support/typed-workspace';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const SPEC = readFileSync(join(root, 'test/fixtures/extension/tool-library.yaml'), 'utf8');

/** A module written against the names, as docs/extending.md shows: every place that names one. */
const MODULE = `import { defineExtension, type Extension, useNinefold } from '@ninefold/web/extension';
import type { Spec } from './tool-library.types';

const Nothing = () => null;

function OutOnLoan() {
  const { list } = useNinefold<Spec>();
  void list('Loan', { filters: [{ field: 'status', value: 'out' }], sort: [{ field: 'borrower' }] });
  return null;
}

export default defineExtension<Extension<Spec>>({
  fields: {
    fields: { 'Tool.rating': { display: Nothing } },
    widgets: { stars: { display: Nothing } },
  },
  screens: { ShelfLabel: Nothing },
  slots: { detailAside: { Tool: Nothing }, dashboardTiles: { home: OutOnLoan } },
  actions: {
    markBroken: { entity: 'Tool', label: 'Broken', call: 'updateTool', body: () => ({ condition: 'broken' }) },
    takeBack: { entity: 'Loan', label: 'Take back', call: 'returnLoan' },
  },
});
`;

async function ninefold(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(root, 'bin/ninefold.js'), ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function workspace(): string {
  const dir = typedWorkspace();
  writeFileSync(join(dir, 'tool-library.ui.tsx'), MODULE);
  return dir;
}

/** `spec` written into `dir`, and the names `ninefold types` writes from it beside it. */
async function writeNames(dir: string, spec: string): Promise<void> {
  writeFileSync(join(dir, 'tool-library.yaml'), spec);
  const written = await ninefold(
    'types',
    join(dir, 'tool-library.yaml'),
    '-o',
    join(dir, 'tool-library.types.ts'),
  );
  expect(written.code, written.stderr).toBe(0);
}

/** The module type-checked with its names written from `spec`: TypeScript's errors, one per line. */
async function compile(dir: string, spec: string): Promise<string[]> {
  await writeNames(dir, spec);
  return typeErrors(dir);
}

/**
 * The module type-checked against each specification, with its names written from it, in one run of
 * TypeScript over a folder per specification (each run loads React's and the client's types, seconds of
 * it): TypeScript's errors by folder, each as its own line would read in that folder.
 */
async function compileEach(specs: Record<string, string>): Promise<Record<string, string[]>> {
  const dir = typedWorkspace(['*/*.ts', '*/*.tsx']);
  for (const [name, spec] of Object.entries(specs)) {
    const folder = join(dir, name);
    mkdirSync(folder);
    writeFileSync(join(folder, 'tool-library.ui.tsx'), MODULE);
    await writeNames(folder, spec);
  }
  const errors = Object.fromEntries(Object.keys(specs).map((name): [string, string[]] => [name, []]));
  for (const line of await typeErrors(dir)) {
    const [name, ...rest] = line.split('/');
    const of = errors[name ?? ''];
    if (of === undefined) throw new Error(`an error outside the specifications' folders: ${line}`);
    of.push(rest.join('/'));
  }
  return errors;
}

/** The line of the module that holds `text`, as TypeScript numbers it. */
function lineOf(text: string): number {
  return MODULE.split('\n').findIndex((line) => line.includes(text)) + 1;
}

describe('ninefold types', () => {
  it('writes names an extension module compiles against, and each name lost is an error at its use', async () => {
    const errors = await compileEach({
      intact: SPEC,
      // A field renamed in the specification: the override of the old name no longer compiles.
      renamed: SPEC.replaceAll('rating', 'score'),
      // A field the module lists by, renamed: the list's sort no longer compiles.
      listed: SPEC.replaceAll('borrower', 'member'),
      // A transition removed, its call kept in point 7: an action can no longer run it.
      removed: SPEC.replace(
        'return: { label: Take back, from: [out], to: returned, call: returnLoan, roles: [librarian] }',
        'lose: { label: Lost, from: [out], to: returned, roles: [librarian] }',
      ),
    });
    const at = (text: string) =>
      expect.stringMatching(new RegExp(`^tool-library\\.ui\\.tsx\\(${lineOf(text)},\\d+\\): error TS`));
    expect(errors).toEqual({
      intact: [],
      renamed: [at("'Tool.rating'")],
      listed: [at("sort: [{ field: 'borrower' }]")],
      removed: [at("call: 'returnLoan'")],
    });
  }, 120_000);

  it('compiles the example of docs/extending.md as a stranger would paste it', async () => {
    const guide = readFileSync(join(root, 'docs/extending.md'), 'utf8');
    const example = /```tsx\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf('### Typed names')))?.[1];
    if (example === undefined) throw new Error('the example is gone from the guide');
    const dir = workspace();
    // The guide leaves out the display component it names.
    writeFileSync(join(dir, 'tool-library.ui.tsx'), `${example}\nfunction Stars() {\n  return null;\n}\n`);
    expect(await compile(dir, SPEC)).toEqual([]);
  }, 60_000);

  it('is kept current by check when the names live beside the specification', async () => {
    const dir = workspace();
    expect(await compile(dir, SPEC)).toEqual([]);
    const names = join(dir, 'tool-library.types.ts');
    expect(readFileSync(names, 'utf8')).toContain('rating?:');
    writeFileSync(join(dir, 'tool-library.yaml'), SPEC.replaceAll('rating', 'score'));
    const checked = await ninefold('check', join(dir, 'tool-library.yaml'));
    expect(checked.stderr).toContain(`wrote ${names}`);
    expect(readFileSync(names, 'utf8')).toContain('score?:');
    // Nothing changed: nothing written.
    const again = await ninefold('check', join(dir, 'tool-library.yaml'));
    expect(again.stderr).not.toContain('wrote');
  }, 60_000);

  it('says what it needs, and refuses a specification with errors', async () => {
    expect((await ninefold('types')).code).toBe(2);
    const dir = workspace();
    writeFileSync(
      join(dir, 'broken.yaml'),
      'title: Broken\nscreens: { a: { kind: list, route: /a, entity: Nope } }\n',
    );
    const refused = await ninefold('types', join(dir, 'broken.yaml'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/has errors; nothing was written/);
  }, 60_000);

  it('has written the names the tool library’s module is typed against, as they are now', async () => {
    const written = await ninefold('types', 'test/fixtures/extension/tool-library.yaml');
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(join(root, 'test/fixtures/extension/tool-library.types.ts'), 'utf8')).toBe(
      written.stdout,
    );
  }, 60_000);
});
