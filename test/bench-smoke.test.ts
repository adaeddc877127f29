// Smoke runs of the benchmarks that run in a few seconds at tiny sizes: one round each, results written
// to a temporary directory, no time asserted. A change that breaks a benchmark fails here, rather than
// when someone next measures (bench/client-openapi.ts was found broken that way: serve refused GitHub's
// document). bench/record-rules.ts has its own (bench-smoke-record-rules.test.ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GITHUB_FILE } from '../bench/support/heap-runs';
import { postgresUnavailable } from '../packages/server/test/support/databases';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);
/** Each benchmark as a bundled script, not through tsx (about 2 s of CPU saved at each start). */
const RUN_TS = join(ROOT, 'scripts/run-ts.mjs');

async function bench(script: string, env: Record<string, string>): Promise<string> {
  const results = mkdtempSync(join(tmpdir(), 'ninefold-bench-smoke-'));
  await run(process.execPath, ['--expose-gc', RUN_TS, join(ROOT, 'bench', script)], {
    cwd: ROOT,
    // The load tests send 100 requests a run instead of loading both cores for BENCH_SECONDS.
    env: { ...process.env, BENCH_RESULTS: results, NO_COLOR: '1', BENCH_REQUESTS: '100', ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return results;
}

function result(dir: string, name: string): { ours: number; peer: number; ratio: number } {
  return JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
}

const noCorpus = existsSync(GITHUB_FILE) ? undefined : `GitHub's description is not at ${GITHUB_FILE}`;
if (noCorpus) console.warn(`bench smoke runs of the OpenAPI reader skipped: ${noCorpus}`);
const noPostgres = await postgresUnavailable();
if (noPostgres && process.env.CI === 'true')
  throw new Error(`CI must run bench:api's smoke run: ${noPostgres}`);

describe('the benchmarks, at tiny sizes', () => {
  it('npm run bench: loading and checking a generated specification against yaml.parse', async () => {
    const dir = await bench('run.ts', { BENCH_ENTITIES: '3', BENCH_FIELDS: '4', BENCH_ROUNDS: '1' });
    const figure = result(dir, 'load-check-yaml');
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
  }, 60_000);

  it('bench/contract.ts: the OpenAPI output against loading the specification, and verify of the shop', async () => {
    const dir = await bench('contract.ts', { BENCH_CONTRACT_ROUNDS: '1', BENCH_VERIFY_ROUNDS: '1' });
    const output = result(dir, 'contract-openapi-output');
    expect(output.ours).toBeGreaterThan(0);
    expect(output.peer).toBeGreaterThan(0);
    const verified = JSON.parse(readFileSync(join(dir, 'contract-verify.json'), 'utf8'));
    expect(verified.requests).toBeGreaterThan(50);
    expect(verified.checksMade).toBeGreaterThan(50);
  }, 60_000);

  it.skipIf(noPostgres !== undefined)(
    'bench/database-import.ts: ninefold import of a PostgreSQL schema against pg_dump --schema-only',
    async () => {
      const dir = await bench('database-import.ts', { BENCH_DB_TABLES: '5', BENCH_DB_RUNS: '1' });
      const figure = result(dir, 'database-import-postgres');
      expect(figure.ours).toBeGreaterThan(0);
      expect(figure.peer).toBeGreaterThan(0);
    },
    60_000,
  );

  it.skipIf(noPostgres !== undefined)(
    'bench/existing-list.ts: a list page of a team’s table with a key of two columns against the driver',
    async () => {
      const dir = await bench('existing-list.ts', {
        BENCH_EXISTING_ROWS: '500',
        BENCH_EXISTING_REQUESTS: '20',
      });
      const figure = result(dir, 'existing-list-1m-postgres');
      expect(figure.ours).toBeGreaterThan(0);
      expect(figure.peer).toBeGreaterThan(0);
    },
    60_000,
  );

  it.skipIf(noCorpus !== undefined)(
    'bench/openapi-import-process.ts: ninefold import of GitHub’s description as a process against JSON.parse',
    async () => {
      const dir = await bench('openapi-import-process.ts', {
        BENCH_IMPORT_PROCESS_RUNS: '1',
        BENCH_OCTOKIT: '0',
      });
      const figure = JSON.parse(readFileSync(join(dir, 'openapi-import-process.json'), 'utf8'));
      expect(figure.documents).toHaveLength(1);
      expect(figure.documents[0].oursPeakMb).toBeGreaterThan(0);
      expect(figure.peer).toBeGreaterThan(0);
    },
    60_000,
  );

  it('bench/command-start.ts: the command as a whole process against vite --help and tsc --version', async () => {
    const dir = await bench('command-start.ts', { BENCH_START_RUNS: '1' });
    const figure = JSON.parse(readFileSync(join(dir, 'command-start.json'), 'utf8'));
    const medians = [
      'help',
      'checkEmpty',
      'checkRich',
      'checkWithExtension',
      'viteHelp',
      'tscVersion',
      'checkEmptyThroughTsx',
    ];
    for (const name of [...medians, 'npmStartToFirstAnswer'])
      expect(figure.medians[name], name).toBeGreaterThan(0);
  }, 60_000);

  it.skipIf(noPostgres !== undefined)(
    'bench/csv-import.ts: a CSV import through the API against a plain batched INSERT, on both databases',
    async () => {
      const dir = await bench('csv-import.ts', { BENCH_CSV_ROWS: '300' });
      for (const database of ['sqlite', 'postgres']) {
        const figure = JSON.parse(readFileSync(join(dir, `csv-import-${database}.json`), 'utf8'));
        expect(figure.ours).toBeGreaterThan(0);
        expect(figure.peer).toBeGreaterThan(0);
        expect(figure.healthChecks).toBeGreaterThan(0);
      }
    },
    120_000,
  );

  it('bench/playground-storage.ts: the playground API in the tab against SQLite in WebAssembly (sql.js)', async () => {
    const dir = await bench('playground-storage.ts', {
      BENCH_STORAGE_COUNTS: '12',
      BENCH_STORAGE_ROUNDS: '1',
    });
    const figure = JSON.parse(readFileSync(join(dir, 'playground-storage.json'), 'utf8'));
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
    expect(figure.pageBytes.peerWasmKiB).toBeGreaterThan(0);
  }, 120_000);

  it.skipIf(noCorpus !== undefined)(
    'reading and importing GitHub’s description against JSON.parse',
    async () => {
      const dir = await bench('openapi-read.ts', { BENCH_OPENAPI_RUNS: '1' });
      expect(result(dir, 'openapi-read-github').ours).toBeGreaterThan(0);
      const imported = await bench('openapi-import.ts', { BENCH_OPENAPI_RUNS: '1' });
      expect(result(imported, 'openapi-import-github').ours).toBeGreaterThan(0);
    },
    120_000,
  );

  it('npm run bench:api: the prototype API, signed in, against json-server', async () => {
    const dir = await bench('api.ts', {
      BENCH_SECONDS: '1',
      BENCH_ROUNDS: '1',
      BENCH_SEED: '60',
      BENCH_SKIP_1M: '1',
      ...(noPostgres ? { BENCH_SKIP_POSTGRES: '1' } : {}),
    });
    for (const name of [
      'api-list-sqlite',
      'api-create-sqlite',
      ...(noPostgres ? [] : ['api-list-postgres']),
    ]) {
      const figure = result(dir, name);
      expect(figure.ours, name).toBeGreaterThan(0);
      expect(figure.peer, name).toBeGreaterThan(0);
    }
  }, 180_000);

  it('bench/logs.ts: the list with every request logged against no log', async () => {
    const dir = await bench('logs.ts', { BENCH_SECONDS: '1', BENCH_ROUNDS: '1', BENCH_SEED: '20' });
    const figure = result(dir, 'logs-list-sqlite');
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
  }, 120_000);

  it('bench/audit.ts: creates with the audit trail on against off, on both databases', async () => {
    const dir = await bench('audit.ts', {
      BENCH_SECONDS: '1',
      BENCH_ROUNDS: '1',
      ...(noPostgres ? { BENCH_SKIP_POSTGRES: '1' } : {}),
    });
    for (const name of ['audit-create-sqlite', ...(noPostgres ? [] : ['audit-create-postgres'])]) {
      const figure = result(dir, name);
      expect(figure.ours, name).toBeGreaterThan(0);
      expect(figure.peer, name).toBeGreaterThan(0);
    }
  }, 120_000);

  it('bench/export.ts: a list exported as CSV against sqlite3 -csv and psql \\copy, every row on each side', async () => {
    const dir = await bench('export.ts', {
      BENCH_EXPORT_ROWS: '2500',
      BENCH_ROUNDS: '1',
      ...(noPostgres ? { BENCH_SKIP_POSTGRES: '1' } : {}),
    });
    // The benchmark itself refuses a side that exports fewer rows than the table holds.
    for (const side of noPostgres ? ['sqlite'] : ['sqlite', 'postgres']) {
      const figure = result(dir, `export-csv-${side}`) as ReturnType<typeof result> & { rows: number };
      expect(figure.rows, side).toBe(2500);
      expect(figure.ours, side).toBeGreaterThan(0);
      expect(figure.peer, side).toBeGreaterThan(0);
    }
  }, 120_000);

  it('bench/search.ts: a list searched against its contains filter, on both databases', async () => {
    const dir = await bench('search.ts', {
      BENCH_SEARCH_ROWS: '3000',
      BENCH_SEARCH_QUERIES: '6',
      ...(noPostgres ? { BENCH_SKIP_POSTGRES: '1' } : {}),
    });
    // The benchmark itself refuses an index that does not find a product by its number.
    for (const side of noPostgres ? ['sqlite'] : ['sqlite', 'postgres']) {
      const figure = result(dir, `search-${side}`);
      expect(figure.ours, side).toBeGreaterThan(0);
      expect(figure.peer, side).toBeGreaterThan(0);
    }
  }, 180_000);

  it('bench/figures.ts: the dashboard figures against the same GROUP BY through the driver', async () => {
    const dir = await bench('figures.ts', {
      BENCH_FIGURES_ROWS: '2000',
      BENCH_FIGURES_ROUNDS: '1',
      ...(noPostgres ? { BENCH_SKIP_POSTGRES: '1' } : {}),
    });
    for (const side of noPostgres ? ['sqlite'] : ['sqlite', 'postgres']) {
      const figure = result(dir, `figures-${side}`);
      expect(figure.ours, side).toBeGreaterThan(0);
      expect(figure.peer, side).toBeGreaterThan(0);
    }
  }, 180_000);

  it.skipIf(noPostgres !== undefined)(
    'bench/nodes.ts: two nodes on one PostgreSQL against one, and events across nodes',
    async () => {
      const dir = await bench('nodes.ts', {
        BENCH_SECONDS: '1',
        BENCH_ROUNDS: '1',
        BENCH_STREAMS: '10',
        BENCH_EVENTS: '3',
      });
      for (const name of ['nodes-list-postgres', 'nodes-create-postgres', 'events-fanout-postgres']) {
        const figure = result(dir, name);
        expect(figure.ours, name).toBeGreaterThan(0);
        expect(figure.peer, name).toBeGreaterThan(0);
      }
    },
    180_000,
  );

  it('bench/import.ts: a CSV import against a plain batched INSERT', async () => {
    const dir = await bench('import.ts', { BENCH_IMPORT_ROWS: '1500', BENCH_ROUNDS: '1' });
    // The benchmark itself refuses a batch that did not make every one of its rows.
    const figure = result(dir, 'import-sqlite');
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
  }, 120_000);
});
