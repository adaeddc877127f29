// `ninefold import` of an existing database, as a person runs it: a SQLite file in, a specification that
// `check` passes and the report on the terminal out; a URL's password is never printed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main';
import { bufferTerminal } from './support/buffer-terminal';

const root = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'ninefold-import-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Sqlite = { exec(sql: string): void; close(): void };
const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Sqlite;

describe('ninefold import DATABASE', () => {
  it('writes a specification of a SQLite file that check passes, and prints the report', async () => {
    const file = join(dir, 'workshop.sqlite');
    const db = new SqliteDatabase(file);
    db.exec(readFileSync(join(root, 'packages/database/test/fixtures/workshop.sqlite.sql'), 'utf8'));
    db.close();
    const out = join(dir, 'workshop.yaml');
    const terminal = bufferTerminal();
    expect(await main(['import', file, '-o', out], terminal)).toBe(0);
    expect(terminal.stderr).toContain(`Import report for ${file}`);
    expect(terminal.stderr).toMatch(/inferred {2}join table job_mechanics .* many-to-many: Job\.mechanics/);
    expect(readFileSync(out, 'utf8')).toMatch(/^# Imported by ninefold from /);
    const check = bufferTerminal();
    expect(await main(['check', out], check)).toBe(0);
    expect(check.stdout).toContain('coverage: 4 of 9 points shown');
    // Markdown too, as for an OpenAPI document.
    expect(
      await main(['import', file, '--format', 'markdown', '-o', join(dir, 'workshop.md')], bufferTerminal()),
    ).toBe(0);
    expect(await main(['check', join(dir, 'workshop.md')], bufferTerminal())).toBe(0);
  });

  it('says why a database cannot be read, without its password', async () => {
    const terminal = bufferTerminal();
    const code = await main(['import', 'postgres://someone:s3cret-pw@127.0.0.1:9/none'], terminal);
    expect(code).toBe(2);
    expect(terminal.stderr).toContain('could not be read');
    expect(terminal.stderr).not.toContain('s3cret-pw');
  });

  it('still reads a file that is not a database as an OpenAPI document', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'not a database, not a document');
    const terminal = bufferTerminal();
    expect(await main(['import', file], terminal)).toBe(2);
    expect(terminal.stderr).toContain('is not an OpenAPI document');
  });
});
