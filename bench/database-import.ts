// Run with `node --import tsx bench/database-import.ts`: `ninefold import` of a PostgreSQL schema of 500
// tables (issue 44), against `pg_dump --schema-only` of the same database, each as a whole process,
// interleaved in one run. Each table has a key, a few columns of every kind, a reference to an earlier
// table, a unique column and a CHECK, so the import reads what a real schema holds.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTemporaryDatabase } from '../packages/server/test/support/databases';
import { median, RESULTS_DIR } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TABLES = Number(process.env.BENCH_DB_TABLES ?? 500);
const RUNS = Number(process.env.BENCH_DB_RUNS ?? 5);

function ddl(tables: number): string {
  const statements = ["CREATE TYPE stage AS ENUM ('new', 'open', 'closed');"];
  for (let t = 0; t < tables; t++) {
    const reference = t > 0 ? `, parent_id integer REFERENCES table_${t - 1} (id) ON DELETE SET NULL` : '';
    statements.push(
      `CREATE TABLE table_${t} (id serial PRIMARY KEY, name varchar(120) NOT NULL, code text UNIQUE, ` +
        `price numeric(10, 2) CHECK (price >= 0), stage stage NOT NULL DEFAULT 'new', starts_on date, ` +
        `ends_on date, active boolean NOT NULL DEFAULT true, data jsonb${reference}, CHECK (starts_on <= ends_on));`,
      `COMMENT ON TABLE table_${t} IS 'Table ${t} of the benchmark.';`,
    );
  }
  return statements.join('\n');
}

function timeOnce(command: string, args: string[]): number {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const took = performance.now() - started;
  if (run.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  return took;
}

const database = await createTemporaryDatabase('bench_import');
try {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(ddl(TABLES));
  await client.end();
  const ours: number[] = [];
  const peer: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    ours.push(timeOnce(process.execPath, ['bin/ninefold.js', 'import', database.url, '-o', '/dev/null']));
    peer.push(timeOnce('pg_dump', ['--schema-only', '--no-owner', '-f', '/dev/null', database.url]));
  }
  const result = {
    metric: `ninefold import of a PostgreSQL schema of ${TABLES} tables, as a whole process, against pg_dump --schema-only`,
    unit: 'ms',
    ours: Math.round(median(ours)),
    peer: Math.round(median(peer)),
    peerName: 'pg_dump --schema-only (PostgreSQL 15)',
    ratio: median(ours) / median(peer),
    tables: TABLES,
    notes: `median of ${RUNS} interleaved runs, on Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at the end. Ours reads the catalog, maps it, checks the specification and writes YAML.`,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}database-import-postgres.json`, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await database.drop();
}
