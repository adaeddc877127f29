import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeApi, loadSpec } from '@ninefold/model';
import { ensureRuntime } from '@ninefold/web/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const shopYaml = readFileSync(join(root, 'examples/shop.yaml'), 'utf8').replace(
  '$schema: ../schema/ninefold.schema.json\n',
  '',
);

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'ninefold-build-'));
}

function specFile(dir: string, text = shopYaml, name = 'shop.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function build(...args: string[]) {
  const terminal = bufferTerminal();
  const code = await main(['build', ...args], terminal);
  return { code, stdout: terminal.stdout, stderr: terminal.stderr };
}

function read(dir: string, name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}

/** The policy in the page's `<meta http-equiv>`, or undefined. */
function metaPolicy(html: string): string | undefined {
  return /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
}

let runtime: string;
beforeAll(async () => {
  // The first build of the runtime in a fresh tree takes a while; later calls find it built.
  runtime = await ensureRuntime();
}, 300_000);

describe('ninefold build', () => {
  it('writes the runtime, the checked model, a page with its policy, and the host files', async () => {
    const dir = tempDir();
    const out = join(dir, 'site');
    const result = await build(specFile(dir), '--out', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Static client for Harbor Supply written to');
    for (const name of ['index.html', 'spec.json', '_headers', '_redirects', 'assets/'])
      expect(result.stdout).toContain(name);

    expect(readdirSync(out).sort()).toEqual(['_headers', '_redirects', 'assets', 'index.html', 'spec.json']);
    // The runtime's hashed files, all of them, and its build stamp not among them.
    expect(readdirSync(join(out, 'assets')).sort()).toEqual(readdirSync(join(runtime, 'assets')).sort());
    // Buffer.equals, not toEqual: a deep comparison of a megabyte, byte by byte, took seconds a file.
    const differing = readdirSync(join(out, 'assets')).filter(
      (asset) =>
        !readFileSync(join(out, 'assets', asset)).equals(readFileSync(join(runtime, 'assets', asset))),
    );
    expect(differing).toEqual([]);

    const spec = JSON.parse(read(out, 'spec.json'));
    const loaded = loadSpec(shopYaml, { file: join(dir, 'shop.yaml') });
    expect(spec.model).toEqual(JSON.parse(JSON.stringify(loaded.model)));
    // The model's own calls are not sent a second time in `api`.
    expect(describeApi(spec.model).conventional).toBe(false);
    expect(spec.api).toEqual({ base: '/api', conventional: false });
    expect(spec.dev).toBeUndefined();

    const html = read(out, 'index.html');
    const policy = metaPolicy(html);
    expect(policy).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
        "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'",
    );
    // The policy comes before the first script it must govern, and no script is inline.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'));
    for (const script of html.match(/<script\b[^>]*>/g) ?? []) expect(script).toMatch(/\ssrc="/);
    expect(html).toContain('<base href="/" />');

    const headers = read(out, '_headers');
    expect(headers).toContain(`/*\n  Content-Security-Policy: ${policy}; frame-ancestors 'none'\n`);
    expect(headers).toContain('  X-Content-Type-Options: nosniff\n  Referrer-Policy: no-referrer\n');
    expect(headers).toContain('/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n');
    expect(read(out, '_redirects')).toContain('/*  /index.html  200\n');
  });

  it('points the client at --api-base, allows that origin, and serves under --base', async () => {
    const dir = tempDir();
    const out = join(dir, 'site');
    const result = await build(
      specFile(dir),
      '--out',
      out,
      '--api-base',
      'https://api.example.com/v1',
      '--base',
      '/shop',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(read(out, 'spec.json')).api.base).toBe('https://api.example.com/v1');
    const html = read(out, 'index.html');
    expect(html).toContain('<base href="/shop/" />');
    expect(metaPolicy(html)).toContain("connect-src 'self' https://api.example.com;");
    const headers = read(out, '_headers');
    expect(headers).toContain("connect-src 'self' https://api.example.com;");
    expect(headers).toContain('/shop/*\n');
    expect(headers).toContain('/shop/assets/*\n');
    expect(read(out, '_redirects')).toContain('/shop/*  /shop/index.html  200\n');
  });

  it("uses the specification's calls.baseUrl when no --api-base is given", async () => {
    const dir = tempDir();
    const out = join(dir, 'site');
    const spec = specFile(
      dir,
      shopYaml.replace('calls:\n', 'calls:\n  baseUrl: https://orders.example.org/v2\n'),
    );
    const result = await build(spec, '--out', out);
    expect(result.code).toBe(0);
    expect(JSON.parse(read(out, 'spec.json')).api.base).toBe('https://orders.example.org/v2');
    expect(metaPolicy(read(out, 'index.html'))).toContain("connect-src 'self' https://orders.example.org;");
  });

  it('refuses a directory that is not empty and holds no previous build, and changes nothing', async () => {
    const dir = tempDir();
    const out = join(dir, 'site');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const result = await build(specFile(dir), '--out', out);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not empty and holds no previous build');
    expect(readdirSync(out)).toEqual(['notes.txt']);
  });

  it("writes over a previous build: its old assets go, the host's own files stay", async () => {
    const dir = tempDir();
    const out = join(dir, 'site');
    expect((await build(specFile(dir), '--out', out)).code).toBe(0);
    writeFileSync(join(out, 'assets', 'index-Stale000.js'), 'old');
    writeFileSync(join(out, 'CNAME'), 'shop.example.com');
    const again = await build(
      specFile(dir, shopYaml.replace('title: Harbor Supply', 'title: Harbor Two')),
      '--out',
      out,
    );
    expect(again.code).toBe(0);
    expect(existsSync(join(out, 'assets', 'index-Stale000.js'))).toBe(false);
    expect(read(out, 'CNAME')).toBe('shop.example.com');
    expect(JSON.parse(read(out, 'spec.json')).model.title).toBe('Harbor Two');
  });

  it('stops at a specification with errors: exit 1, the issues as check prints them, nothing written', async () => {
    const dir = tempDir();
    const out = join(dir, 'site');
    const spec = specFile(
      dir,
      shopYaml.replace('description: { kind: markdown }', 'description: { kind: txet }'),
    );
    const result = await build(spec, '--out', out);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /shop\.yaml:\d+:\d+ {2}error {3}.*"txet" is not a known kind.*invalid-value/,
    );
    expect(result.stderr).toContain('has errors; fix them first');
    expect(existsSync(out)).toBe(false);
  });

  it('writes the playground beside the client with --playground, and alone without SPEC', async () => {
    const dir = tempDir();
    const beside = join(dir, 'site');
    const withClient = await build(specFile(dir), '--out', beside, '--playground', '--base', '/shop/');
    expect(withClient.code).toBe(0);
    expect(withClient.stdout).toContain('_/playground/');
    const page = read(beside, '_/playground/index.html');
    expect(page).toContain('<base href="/shop/" />');
    expect(metaPolicy(page)).toContain("script-src 'self';");
    expect(metaPolicy(page)).not.toContain('unsafe-eval');
    // The runtime's own playground page is never copied as it is (its base and policy are not set).
    expect(existsSync(join(beside, 'playground.html'))).toBe(false);
    const script = /<script type="module" crossorigin src="\.\/assets\/(playground-[^"]+\.js)"/.exec(
      page,
    )?.[1];
    expect(script && existsSync(join(beside, 'assets', script))).toBe(true);
    // Built again without it, the playground goes.
    expect((await build(specFile(dir), '--out', beside)).code).toBe(0);
    expect(existsSync(join(beside, '_'))).toBe(false);

    const alone = join(dir, 'play');
    const result = await build('--playground', '--out', alone);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The Ninefold playground written to');
    expect(readdirSync(alone).sort()).toEqual(['_headers', 'assets', 'index.html']);
    expect(read(alone, 'index.html')).toContain('<title>Ninefold playground</title>');
    // A second build over the first is allowed; over somebody's files it is not.
    expect((await build('--playground', '--out', alone)).code).toBe(0);
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    expect((await build('--playground', '--out', other)).code).toBe(2);
  });

  it('says how to use it when used wrongly (exit 2)', async () => {
    const dir = tempDir();
    const spec = specFile(dir);
    const noOut = await build(spec);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--out DIR');
    const badApi = await build(spec, '--out', join(dir, 'a'), '--api-base', 'javascript:alert(1)');
    expect(badApi.code).toBe(2);
    expect(badApi.stderr).toContain('--api-base');
    const badBase = await build(spec, '--out', join(dir, 'b'), '--base', '/a"><script>/');
    expect(badBase.code).toBe(2);
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    expect((await build(spec, '--out', file)).code).toBe(2);
    const help = await build('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: ninefold build SPEC --out DIR');
  });

  it('runs as a real process through bin/ninefold.js', async () => {
    const dir = tempDir();
    const out = join(dir, 'site');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, 'bin/ninefold.js'), 'build', join(root, 'examples/empty.md'), '--out', out],
      { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(stdout).toContain('Static client for');
    // All nine points not shown: no calls, and nothing invented.
    expect(JSON.parse(read(out, 'spec.json')).api).toEqual({ base: '/api', conventional: true, calls: [] });
    expect(metaPolicy(read(out, 'index.html'))).toContain("script-src 'self';");
  });
});
