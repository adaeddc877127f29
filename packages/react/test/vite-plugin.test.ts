import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusPath } from '../../openapi/test/support/corpus';
import { ninefold } from '../src/vite-plugin';

const ROOT = resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'ninefold-plugin-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the plugin's load hook as Vite would, collecting what it reports. */
async function load(file: string, options: Parameters<typeof ninefold>[0] = {}) {
  const plugin = ninefold(options);
  const reported = { warnings: [] as string[], watched: [] as string[] };
  const context = {
    error(message: string): never {
      throw new Error(message);
    },
    warn(message: string) {
      reported.warnings.push(message);
    },
    addWatchFile(path: string) {
      reported.watched.push(path);
    },
  };
  const hook = plugin.load as (this: typeof context, id: string) => Promise<{ code: string } | undefined>;
  const result = await hook.call(context, `${file}?ninefold`);
  return { result, ...reported };
}

const EMPTY = readFileSync(join(ROOT, 'examples/empty.md'), 'utf8');

/** The empty example with one entity of point 3, whose field is the given table row. */
function withOrders(row: string): string {
  const orders = `## 3. Entities and fields\n\n### Order\n\n| Field | Type | Widget |\n| --- | --- | --- |\n${row}\n`;
  return EMPTY.replace('## 3. Entities and fields\nNot shown.', orders);
}

/** The empty example with one constant of point 9. */
function withConstant(row: string): string {
  const constants = `## 9. Business constants and limits\n\n| Name | Value |\n| --- | --- |\n${row}\n`;
  return EMPTY.replace('## 9. Business constants and limits\nNot shown.', constants);
}

/** The module's default export, as the app receives it. */
function exported(code: string): { model: { title?: string }; api: { base: string; auth?: unknown } } {
  return JSON.parse(code.replace(/^export default /, '').replace(/;\n$/, ''));
}

describe('the Vite plugin of @ninefold/react', () => {
  it('makes a Markdown spec the checked model and the prototype API calls, and watches the file', async () => {
    const file = join(ROOT, 'examples/shop.md');
    const { result, warnings, watched } = await load(file);
    const spec = exported(result?.code ?? '');
    expect(spec.model.title).toBe('Harbor Supply');
    expect(spec.api.base).toBe('/api');
    // The prototype API's session calls, which `ninefold serve` sends the client too.
    expect(spec.api.auth).toEqual({
      session: '/auth/session',
      refresh: '/auth/refresh',
      signOut: '/auth/sign-out',
      passwordReset: '/auth/password-reset',
      password: '/auth/password',
    });
    expect(warnings).toEqual([]);
    expect(watched).toEqual([file]);
  });

  it('sends the calls to the real API when told its address', async () => {
    const { result } = await load(join(ROOT, 'examples/shop.md'), { api: 'https://api.example.com/v1' });
    const spec = exported(result?.code ?? '');
    expect(spec.api.base).toBe('https://api.example.com/v1');
    expect(spec.api.auth).toBeUndefined();
  });

  it.skipIf(CORPUS === undefined)('reads an OpenAPI document of the corpus into a model', async () => {
    const file = corpusPath('oai-examples/v3.0/petstore-expanded.yaml');
    const { result } = await load(file);
    expect(exported(result?.code ?? '').model.title).toMatch(/petstore/i);
  });

  it('stops the build on an error in the spec, naming the file, line and column', async () => {
    const file = join(scratch, 'broken.md');
    writeFileSync(file, withOrders('| total | moneyy | |'));
    await expect(load(file)).rejects.toThrow(new RegExp(`${file}:18:11 +error +The kind "moneyy"`));
  });

  it('prints warnings and goes on', async () => {
    const file = join(scratch, 'warned.md');
    writeFileSync(file, withConstant('| in | 3 |'));
    const { result, warnings } = await load(file);
    expect(exported(result?.code ?? '').model.title).toBe('Nameless');
    expect(warnings.join('\n')).toMatch(
      /warned\.md:\d+:\d+ +warning +Constant "in" \(point 9\) cannot be used/,
    );
  });

  it('says which file it cannot read', async () => {
    await expect(load(join(scratch, 'missing.md'))).rejects.toThrow(/cannot read .*missing\.md/);
  });

  it('leaves every other module to Vite, and names the extension API as @ninefold/react', async () => {
    const plugin = ninefold();
    const hook = plugin.load as (id: string) => Promise<unknown>;
    expect(await hook.call({}, join(ROOT, 'examples/shop.md'))).toBeUndefined();
    const config = (plugin.config as () => { resolve: { alias: Record<string, string> } })();
    expect(config.resolve.alias['@ninefold/web/extension']).toBe('@ninefold/react');
  });
});

describe('the names an app’s extension module is typed against', () => {
  it('are written again beside the specification when they change, and left alone where there are none', async () => {
    const dir = mkdtempSync(join(scratch, 'types-'));
    const spec = join(dir, 'shop.md');
    writeFileSync(spec, withOrders('| reference | text | |'));
    await load(spec);
    // No names were asked for: none are written.
    expect(() => readFileSync(join(dir, 'shop.types.ts'))).toThrow();

    writeFileSync(join(dir, 'shop.types.ts'), '// written by an older specification\n');
    await load(spec);
    const written = readFileSync(join(dir, 'shop.types.ts'), 'utf8');
    expect(written).toContain('Order: {');
    expect(written).toContain('reference?: string | null;');

    // A field renamed: the module's use of the old name stops compiling in the app's own tsc.
    writeFileSync(spec, withOrders('| number | text | |'));
    await load(spec);
    const renamed = readFileSync(join(dir, 'shop.types.ts'), 'utf8');
    expect(renamed).toContain('number?: string | null;');
    expect(renamed).not.toContain('reference?');
  });
});
