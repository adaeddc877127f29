import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { loadSpec, type Model, toMarkdown } from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusPath } from '../../openapi/test/support/corpus';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const root = resolve(import.meta.dirname, '../../..');
const conduit = corpusPath('realworld/conduit-openapi-3.1-v1.1.0.yml');
const dir = mkdtempSync(join(tmpdir(), 'ninefold-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(CORPUS === undefined)('ninefold import', () => {
  it('writes a YAML specification that loads back to the imported model, and prints the report', async () => {
    const out = join(dir, 'conduit.yaml');
    const terminal = bufferTerminal();
    expect(await main(['import', conduit, '-o', out], terminal)).toBe(0);
    expect(terminal.stderr).toContain('Import report for');
    expect(terminal.stderr).toMatch(/inferred {2}key of "Article" is "slug"/);
    expect(terminal.stderr).toContain(`wrote ${out}`);

    const written = loadSpec(readFileSync(out, 'utf8'), { file: out });
    expect(written.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    const imported = importOpenApi({ text: readFileSync(conduit, 'utf8'), file: conduit });
    expect(written.model).toEqual(imported.model);
  });

  it('writes Markdown with --format markdown, and warns about what Markdown cannot hold', async () => {
    const out = join(dir, 'conduit.md');
    const terminal = bufferTerminal();
    expect(await main(['import', conduit, '--format', 'markdown', '-o', out], terminal)).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^<!-- Imported by ninefold from /);
    const written = loadSpec(text, { file: out });
    expect(written.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    const imported = importOpenApi({ text: readFileSync(conduit, 'utf8'), file: conduit });
    if (!imported.model) throw new Error('Conduit did not import');
    // Conduit's path parameters carry descriptions and types, which Markdown has no place for, and its
    // product has a description but no summary, which Markdown reads back as the summary.
    const parameters = [
      'GetProfileByUsername',
      'FollowUserByUsername',
      'UnfollowUserByUsername',
      'GetArticlesFeed',
      'GetArticles',
      'GetArticle',
      'UpdateArticle',
      'DeleteArticle',
      'GetArticleComments',
      'CreateArticleComment',
      'DeleteArticleComment',
      'CreateArticleFavorite',
      'DeleteArticleFavorite',
    ].map(
      (call) =>
        `calls.items[${call}].parameters: Markdown has no column for parameters; only those named in the path ({name}, required text) are kept`,
    );
    const lost = toMarkdown(imported.model).lost;
    expect(lost).toEqual([
      ...parameters,
      'product.description: not kept by the Markdown format (reads back as nothing)',
      'product.summary: not kept by the Markdown format (reads back as "Conduit API documentation")',
    ]);
    for (const item of lost) expect(terminal.stderr).toContain(`warning: not written in Markdown: ${item}`);
    // Everything else is the same model.
    const withoutLost = (model: Model) => ({
      ...model,
      product: { shown: model.product.shown },
      calls: model.calls.shown
        ? { ...model.calls, items: model.calls.items.map((call) => ({ ...call, parameters: [] })) }
        : model.calls,
    });
    expect(written.model && withoutLost(written.model)).toEqual(withoutLost(imported.model));
  });

  it('signs in as the client given with --client-id, which no document names', async () => {
    const doc = join(dir, 'oidc.json');
    writeFileSync(
      doc,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Provider' },
        security: [{ id: [] }],
        paths: {},
        components: {
          securitySchemes: {
            id: {
              type: 'openIdConnect',
              openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration',
            },
          },
        },
      }),
    );
    const signInOf = async (args: string[]) => {
      const terminal = bufferTerminal();
      expect(await main(['import', doc, ...args], terminal)).toBe(0);
      const model = loadSpec(terminal.stdout, { file: 'out.yaml' }).model;
      return model?.roles.shown ? model.roles.signIn : undefined;
    };
    expect(await signInOf([])).toMatchObject({ kind: 'token' });
    expect(await signInOf(['--client-id', '  '])).toMatchObject({ kind: 'token' });
    expect(await signInOf(['--client-id', 'my-app'])).toMatchObject({
      kind: 'oidc',
      issuer: 'https://id.example.com',
      clientId: 'my-app',
    });
  });

  it('prints the specification when no -o is given', async () => {
    const terminal = bufferTerminal();
    expect(await main(['import', conduit], terminal)).toBe(0);
    expect(terminal.stdout).toMatch(/^# Imported by ninefold from /);
    expect(terminal.stdout).toContain('title: RealWorld Conduit API');
  });

  it('refuses a nine-point specification, which needs no import', async () => {
    const terminal = bufferTerminal();
    expect(await main(['import', resolve(root, 'examples/shop.yaml')], terminal)).toBe(2);
    expect(terminal.stderr).toContain('is not an OpenAPI document');
  });

  it('writes nothing for a document with errors, and says where', async () => {
    const out = join(dir, 'never.yaml');
    const broken = join(dir, 'broken.yaml');
    await import('node:fs/promises').then((fs) => fs.writeFile(broken, 'openapi: 3.1.0\npaths: [\n'));
    const terminal = bufferTerminal();
    expect(await main(['import', broken, '-o', out], terminal)).toBe(1);
    expect(terminal.stderr).toContain(`${broken}:`);
    expect(terminal.stderr).toContain('nothing was written');
    expect(() => readFileSync(out)).toThrow();
  });

  it('lets check take an OpenAPI document directly as SPEC', async () => {
    const terminal = bufferTerminal();
    expect(await main(['check', conduit], terminal)).toBe(0);
    expect(terminal.stdout).toContain('coverage: 7 of 9 points shown');
  });

  it('signs in with the scheme chosen by --sign-in when the document has several, and names the calls of each', async () => {
    const petstore = corpusPath('readme-oas-examples/3.0/petstore.json');
    const chosen = bufferTerminal();
    expect(await main(['import', petstore, '--sign-in', 'api_key'], chosen)).toBe(0);
    expect(chosen.stdout).toMatch(/signIn:\n\s+kind: api-key\n\s+in: header\n\s+name: api_key/);
    expect(chosen.stderr).toContain(
      'security scheme "petstore_auth" is not used: the client signs in one way, "api_key"; 7 calls name it',
    );
    expect(chosen.stderr).toContain('choose it with --sign-in petstore_auth');

    const unknown = bufferTerminal();
    expect(await main(['import', petstore, '--sign-in', 'bearer'], unknown)).toBe(1);
    expect(unknown.stderr).toContain(
      '--sign-in: the document has no security scheme "bearer"; it has "petstore_auth", "api_key".',
    );
  });

  it('refuses --sign-in for a nine-point specification, whose point 6 names its sign-in', async () => {
    const terminal = bufferTerminal();
    expect(await main(['check', resolve(root, 'examples/shop.md'), '--sign-in', 'x'], terminal)).toBe(2);
    const serve = bufferTerminal();
    expect(
      await main(
        ['build', resolve(root, 'examples/shop.md'), '--sign-in', 'x', '--out', join(dir, 'never')],
        serve,
      ),
    ).toBe(1);
    expect(serve.stderr).toContain("--sign-in chooses among an OpenAPI document's security schemes");
  });

  describe('the report of a large document', () => {
    const trello = corpusPath('apis-guru/trello.com.json');
    /** The entry lines of a report: each starts with its kind. */
    const entryLines = (text: string) =>
      text.split('\n').filter((line) => /^ {3}(mapped|inferred|not-shown|skipped) /.test(line));
    const counted = (text: string) => {
      const head = /: (\d+) mapped, (\d+) inferred, (\d+) not shown, (\d+) skipped/.exec(text);
      if (!head) throw new Error(`no report head in:\n${text.slice(0, 500)}`);
      return head.slice(1).map(Number);
    };

    it('is summed up on the terminal, each point’s rest counted by kind, with how to have it all', async () => {
      const terminal = bufferTerminal();
      expect(await main(['import', trello, '-o', join(dir, 'trello.yaml')], terminal)).toBe(0);
      const [, inferred = 0, notShown = 0, skipped = 0] = counted(terminal.stderr);
      const listed = entryLines(terminal.stderr);
      // Trello's inferred and skipped items run to hundreds: far more than a screen.
      expect(inferred + notShown + skipped).toBeGreaterThan(400);
      expect(listed.length).toBeLessThan(100);
      const rests = [...terminal.stderr.matchAll(/^ {3}… and (\d+) more: (.*)$/gm)];
      expect(rests.length).toBeGreaterThan(0);
      for (const [, n, kinds] of rests) {
        const sum = [...(kinds ?? '').matchAll(/(\d+) (?:inferred|not shown|skipped)/g)].reduce(
          (total, [, k]) => total + Number(k),
          0,
        );
        expect(sum).toBe(Number(n));
      }
      const rest = rests.reduce((total, [, n]) => total + Number(n), 0);
      expect(listed.length + rest).toBe(inferred + notShown + skipped);
      expect(terminal.stderr).toContain(`${rest} entries are left out above: --report FILE writes them all.`);
    });

    it('is written whole, mapped items too, to the file --report names', async () => {
      const file = join(dir, 'trello-report.txt');
      const terminal = bufferTerminal();
      expect(await main(['import', trello, '-o', join(dir, 'trello.yaml'), '--report', file], terminal)).toBe(
        0,
      );
      expect(terminal.stderr).toContain(`wrote the whole report to ${file}`);
      expect(terminal.stderr).not.toContain('entries are left out above');
      const whole = readFileSync(file, 'utf8');
      const total = counted(whole).reduce((sum, n) => sum + n, 0);
      expect(entryLines(whole)).toHaveLength(total);
      expect(whole).not.toContain('… and');
      // What the terminal listed is in the file, line for line.
      for (const line of entryLines(terminal.stderr)) expect(whole).toContain(line);
    });

    it('refuses a --report that would overwrite the specification, or that cannot be written', async () => {
      const out = join(dir, 'same.yaml');
      const same = bufferTerminal();
      expect(await main(['import', trello, '-o', out, '--report', out], same)).toBe(2);
      expect(same.stderr).toContain('--report and --out both name');
      expect(() => readFileSync(out)).toThrow();
      const nowhere = bufferTerminal();
      const missing = join(dir, 'no-such-folder', 'report.txt');
      expect(await main(['import', trello, '-o', out, '--report', missing], nowhere)).toBe(2);
      expect(nowhere.stderr).toContain(`the report could not be written to ${missing}`);
      expect(() => readFileSync(out)).toThrow();
    });

    it('is printed whole, mapped items too, with --report all', async () => {
      const terminal = bufferTerminal();
      expect(
        await main(['import', trello, '-o', join(dir, 'trello-all.yaml'), '--report', 'all'], terminal),
      ).toBe(0);
      const total = counted(terminal.stderr).reduce((sum, n) => sum + n, 0);
      expect(entryLines(terminal.stderr)).toHaveLength(total);
    });

    it('of a small document is printed whole', async () => {
      const terminal = bufferTerminal();
      expect(await main(['import', conduit, '-o', join(dir, 'conduit-whole.yaml')], terminal)).toBe(0);
      const [, inferred = 0, notShown = 0, skipped = 0] = counted(terminal.stderr);
      expect(entryLines(terminal.stderr)).toHaveLength(inferred + notShown + skipped);
      expect(terminal.stderr).not.toContain('… and');
    });
  });

  it('of an OpenAPI document, as a process, loads no database driver', async () => {
    // Loaded modules of CommonJS (pg and better-sqlite3 are) are in require's cache, listed at exit.
    const preload = join(dir, 'drivers.mjs');
    writeFileSync(
      preload,
      `import { createRequire } from 'node:module';
process.on('exit', () => {
  const cache = createRequire(import.meta.url).cache;
  const drivers = Object.keys(cache).filter((path) => /node_modules[\\\\/](pg|better-sqlite3)[\\\\/]/.test(path));
  process.stderr.write('drivers: ' + JSON.stringify(drivers) + '\\n');
});
`,
    );
    const { stderr } = await promisify(execFile)(process.execPath, [
      '--import',
      pathToFileURL(preload).href,
      join(root, 'bin/ninefold.js'),
      'import',
      conduit,
      '-o',
      join(dir, 'conduit-process.yaml'),
    ]);
    expect(stderr).toContain(`wrote ${join(dir, 'conduit-process.yaml')}`);
    expect(stderr).toContain('drivers: []');
  });
});
