// A CSV import of 100,000 rows with 1% bad (issue 40), side by side in one run with a plain batched
// INSERT of the same good rows (1,000 a statement, in one transaction), on SQLite and on PostgreSQL:
// - time: the API's check (a dry run) and its import, against the INSERT;
// - server memory: the process's resident memory growth during the import, against the INSERT's;
// - the wait of a health check asked every 10 ms over HTTP while the import runs: p99 and the longest.
// In-process (the API through real HTTP on a port), so that memory is the server's own. Written to
// bench/results/csv-import-sqlite.json and csv-import-postgres.json.
//
//   npx tsx bench/csv-import.ts     BENCH_CSV_ROWS (default 100,000), BENCH_CSV_DATABASES (sqlite,postgres)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app';
import { addUser } from '../packages/server/src/auth/users';
import { openStore } from '../packages/server/src/store/open-store';
import { openSqliteFile, rowingClub } from '../test/support/rowing-club';
import { freshPostgres } from './support/child-servers';
import { cleanUp } from './support/clean-up';
import { percentile, RESULTS_DIR } from './support/figures';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
const DATABASES = (process.env.BENCH_CSV_DATABASES ?? 'sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'correct horse battery';

/** A semicolon file with decimal commas, as a German spreadsheet writes it; every 100th row is bad. */
function file(rows: number): { csv: string; good: Array<[string, string, number, number, string]> } {
  const lines = ['Name;Email;Dues;Boats;Joined'];
  const good: Array<[string, string, number, number, string]> = [];
  for (let row = 0; row < rows; row++) {
    const dues = 1000 + (row % 9000) + 0.25;
    if (row % 100 === 99) lines.push(`Bad ${row};bad${row}@club.test;not a number;1;31.12.2024`);
    else {
      lines.push(`Müller ${row};m${row}@club.test;${String(dues).replace('.', ',')};${row % 7};31.12.2024`);
      good.push([`Müller ${row}`, `m${row}@club.test`, dues, row % 7, '2024-12-31']);
    }
  }
  return { csv: lines.join('\r\n'), good };
}

function rssMb(): number {
  return process.memoryUsage().rss / 1024 / 1024;
}

/** Resident memory's growth during `work`, sampled every 10 ms. */
async function growth<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; growthMb: number }> {
  global.gc?.();
  const before = rssMb();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 10);
  const started = performance.now();
  try {
    const value = await work();
    peak = Math.max(peak, rssMb());
    return { value, ms: performance.now() - started, growthMb: peak - before };
  } finally {
    clearInterval(timer);
  }
}

async function ours(database: string) {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-csv-bench-'));
  const url =
    database === 'sqlite' ? `sqlite:${join(dir, 'club.db')}` : await freshPostgres(PG_ADMIN_URL, 'csv');
  const spec = rowingClub();
  const store = await openStore({ model: spec, url });
  await store.migrate({ allowDestructive: false });
  const added = await addUser(
    store,
    { email: 'sec@club.test', role: 'secretary', attributes: {} },
    { password: PASSWORD },
  );
  if (!added.ok) throw new Error(added.message);
  const app = await buildApp({ model: spec, store });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const signIn = await fetch(`${base}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'sec@club.test', password: PASSWORD }),
  });
  const authorization = `Bearer ${((await signIn.json()) as { token: string }).token}`;
  const { csv, good } = file(ROWS);
  const send = (dryRun: boolean) =>
    fetch(`${base}/api/_import/Member?dryRun=${dryRun}`, {
      method: 'POST',
      body: Buffer.from(csv, 'latin1'),
      headers: { 'content-type': 'text/csv; charset=windows-1252', authorization },
    }).then(async (answer) => {
      if (!answer.ok) throw new Error(`the import answered ${answer.status}: ${await answer.text()}`);
      return (await answer.json()) as { created: number };
    });
  const check = await growth(() => send(true));
  // A health check every 10 ms while the import runs: how long each one waits.
  const waits: number[] = [];
  let done = false;
  const probing = (async () => {
    while (!done) {
      const asked = performance.now();
      await fetch(`${base}/healthz`);
      waits.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const imported = await growth(async () => {
    const report = await send(false);
    done = true;
    return report;
  });
  await probing;
  if (imported.value.created !== good.length)
    throw new Error(`${imported.value.created} of ${good.length} rows stored`);
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return { check, imported, waits, good };
}

async function plainInsert(database: string, good: Array<[string, string, number, number, string]>) {
  if (database === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-csv-peer-'));
    const db = openSqliteFile(join(dir, 'peer.db'));
    db.pragma('journal_mode = WAL');
    db.exec(
      'CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE, dues REAL, boats INTEGER, joined TEXT)',
    );
    const run = await growth(async () => {
      const rows = 1000;
      const statement = db.prepare(
        `INSERT INTO member (name, email, dues, boats, joined) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?)').join(', ')}`,
      );
      db.transaction(() => {
        for (let start = 0; start < good.length; start += rows) {
          const part = good.slice(start, start + rows);
          if (part.length === rows) statement.run(part.flat());
          else
            db.prepare(
              `INSERT INTO member (name, email, dues, boats, joined) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
            ).run(part.flat());
        }
      })();
    });
    db.close();
    rmSync(dir, { recursive: true, force: true });
    return run;
  }
  const url = await freshPostgres(PG_ADMIN_URL, 'csvpeer');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    'CREATE TABLE member (id serial PRIMARY KEY, name text, email text UNIQUE, dues double precision, boats integer, joined text)',
  );
  const run = await growth(async () => {
    await client.query('BEGIN');
    for (let start = 0; start < good.length; start += 1000) {
      const part = good.slice(start, start + 1000);
      await client.query(
        `INSERT INTO member (name, email, dues, boats, joined) VALUES ${part.map((_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`).join(', ')}`,
        part.flat(),
      );
    }
    await client.query('COMMIT');
  });
  await client.end();
  return run;
}

try {
  mkdirSync(RESULTS_DIR, { recursive: true });
  for (const database of DATABASES) {
    const measured = await ours(database);
    const peer = await plainInsert(database, measured.good);
    const round = (value: number) => Math.round(value * 100) / 100;
    const result = {
      what: `CSV import of ${ROWS.toLocaleString('en')} rows (1% bad, Windows-1252, semicolons, decimal commas) through the API, against a plain batched INSERT of the good rows`,
      database,
      rows: ROWS,
      ours: round(measured.imported.ms),
      peer: round(peer.ms),
      ratio: round(peer.ms / measured.imported.ms),
      ratioMeaning: 'INSERT time / import time: 1 is as fast as the INSERT, the goal is 0.8 or more',
      checkMs: round(measured.check.ms),
      checkRatio: round(peer.ms / measured.check.ms),
      importGrowthMb: round(measured.imported.growthMb),
      checkGrowthMb: round(measured.check.growthMb),
      peerGrowthMb: round(peer.growthMb),
      healthWaitP99Ms: round(percentile(measured.waits, 99)),
      healthWaitMaxMs: round(Math.max(...measured.waits)),
      healthChecks: measured.waits.length,
      machine: { cpus: cpus().length, loadAtStart: loadavg().map(round) },
    };
    writeFileSync(join(RESULTS_DIR, `csv-import-${database}.json`), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result));
  }
} finally {
  await cleanUp();
}
