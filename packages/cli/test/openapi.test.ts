import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadSpec, type Model, toDocument } from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const root = resolve(import.meta.dirname, '../../..');
const shop = join(root, 'examples/shop.md');
const dir = mkdtempSync(join(tmpdir(), 'ninefold-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ninefold openapi', () => {
  it('writes the contract as JSON, which every command then reads back as the same specification', async () => {
    const out = join(dir, 'shop.json');
    const terminal = bufferTerminal();
    expect(await main(['openapi', shop, '-o', out], terminal)).toBe(0);
    expect(terminal.stderr).toContain(`wrote ${out}`);
    const document = JSON.parse(readFileSync(out, 'utf8'));
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/orders'].get.operationId).toBe('listOrders');
    // Given as SPEC to check, the contract loads as the specification it came from.
    const check = bufferTerminal();
    expect(await main(['check', out], check)).toBe(0);
    const original = loadSpec(readFileSync(shop, 'utf8'), { file: shop }).model as Model;
    const result = importOpenApi({ text: readFileSync(out, 'utf8'), file: out });
    expect(toDocument(result.model as Model)).toEqual(toDocument(original));
  });

  it('writes YAML to a .yaml file, and to standard output with --format yaml', async () => {
    const out = join(dir, 'shop.yaml');
    expect(await main(['openapi', shop, '-o', out], bufferTerminal())).toBe(0);
    expect(parse(readFileSync(out, 'utf8')).openapi).toBe('3.1.0');
    // The same contract as the JSON one, value for value.
    const json = join(dir, 'shop-beside.json');
    expect(await main(['openapi', shop, '-o', json], bufferTerminal())).toBe(0);
    expect(parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(readFileSync(json, 'utf8')));
    const terminal = bufferTerminal();
    expect(await main(['openapi', shop, '--format', 'yaml'], terminal)).toBe(0);
    expect(terminal.stdout).toMatch(/^openapi: 3\.1\.0\n/);
  });

  it('refuses a broken specification with its issues, and writes nothing', async () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'title: Broken\nproduct: [\n');
    const out = join(dir, 'never.json');
    const terminal = bufferTerminal();
    expect(await main(['openapi', broken, '-o', out], terminal)).toBe(1);
    expect(terminal.stderr).toMatch(/broken\.yaml:\d+:\d+/);
    expect(terminal.stderr).toContain('nothing was written');
    expect(() => readFileSync(out)).toThrow();
  });

  it('says what is wrong with the command line', async () => {
    const terminal = bufferTerminal();
    expect(await main(['openapi', shop, '--format', 'xml'], terminal)).toBe(2);
    expect(terminal.stderr).toContain('--format takes "json" or "yaml", not "xml"');
    expect(await main(['openapi'], bufferTerminal())).toBe(2);
  });
});
