// A list exported as CSV: the prototype API's `Accept: text/csv` (issue 20) against SQLite's own
// `sqlite3 -csv` on the same file, and against psql's `\copy` on PostgreSQL, side by side in one run: time
// to the last byte, and the peak memory of the process that makes the file. Written to
// bench/results/export-csv-sqlite.json and export-csv-postgres.json.
//
//   npx tsx bench/export.ts        BENCH_EXPORT_ROWS (default 1,000,000), BENCH_ROUNDS (default 3)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshPostgres, serveForBench } from './support/child-servers';
import { cleanUp, cleanups } from './support/clean-up';
import { median, RESULTS_DIR } from './support/figures';
import { fillPostgresProducts, fillProducts } from './support/fill-products';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = join(ROOT, 'examples/shop.yaml');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOAD_AT_START = loadavg().map((value) => Math.round(value * 100) / 100);
/** The columns both sides write, in the order the API writes them (its field order). */
const COLUMNS = ['id', 'sku', 'name', 'category', 'price', 'stock', 'description'];

interface Run {
  ms: number;
  /** The peak resident memory of the process that made the file, in MB (sampled every 10 ms). */
  peakMb: number;
  /** How far above its memory before the export that peak was: what the export itself took. */
  growthMb: number;
  rows: number;
}

/** The highest resident memory of a process while `work` runs, from /proc (Linux). */
async function withPeakRss<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ value: T; peakMb: number; growthMb: number }> {
  let peak = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {
      // The process has ended: its last sample stands.
    }
  };
  sample();
  const before = peak;
  const timer = setInterval(sample, 10);
  try {
    const value = await work();
    sample();
    return { value, peakMb: peak / 1024, growthMb: (peak - before) / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** Lines in a stream of CSV bytes (every row of these files is one line: no field holds a line break). */
function countLines(chunk: Uint8Array): number {
  let lines = 0;
  for (const byte of chunk) if (byte === 10) lines++;
  return lines;
}

async function exportOurs(url: string, headers: Record<string, string>, pid: number): Promise<Run> {
  const started = performance.now();
  const {
    value: rows,
    peakMb,
    growthMb,
  } = await withPeakRss(pid, async () => {
    const answer = await fetch(`${url}/api/products?sort=name`, {
      headers: { ...headers, accept: 'text/csv' },
    });
    if (!answer.ok || !answer.body) throw new Error(`the export answered ${answer.status}`);
    let lines = 0;
    for await (const chunk of answer.body) lines += countLines(chunk);
    return lines - 1;
  });
  return { ms: performance.now() - started, peakMb, growthMb, rows };
}

/** The peer's export: a command-line tool writing the CSV to its standard output, counted as it comes. */
async function exportByCommand(command: string, args: string[]): Promise<Run> {
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const {
    value: rows,
    peakMb,
    growthMb,
  } = await withPeakRss(child.pid ?? 0, async () => {
    let lines = 0;
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk;
    });
    for await (const chunk of child.stdout ?? []) lines += countLines(chunk as Buffer);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`${command} exited ${code}: ${errors}`);
    return lines - 1;
  });
  return { ms: performance.now() - started, peakMb, growthMb, rows };
}

const SELECT = `SELECT ${COLUMNS.map((c) => `"${c}"`).join(', ')} FROM "Product" ORDER BY "name", "id"`;

function exportSqlite(file: string): Promise<Run> {
  return exportByCommand('sqlite3', ['-csv', '-header', file, SELECT]);
}

function exportPsql(url: string): Promise<Run> {
  return exportByCommand('psql', [
    url,
    '-X',
    '-q',
    '-c',
    `\\copy (${SELECT}) TO STDOUT WITH (FORMAT csv, HEADER)`,
  ]);
}

/** Both sides' runs, alternating, each checked to have every row. */
async function rounds(
  peerName: string,
  ours: () => Promise<Run>,
  peer: () => Promise<Run>,
): Promise<Record<'ours' | 'peer', Run[]>> {
  const runs: Record<'ours' | 'peer', Run[]> = { ours: [], peer: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // The order alternates every round, so that drift in machine load hits both alike.
    const order = round % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
    for (const side of order) {
      const run = side === 'ours' ? await ours() : await peer();
      if (run.rows !== ROWS)
        throw new Error(`${side === 'ours' ? 'ours' : peerName} exported ${run.rows} rows of ${ROWS}`);
      runs[side].push(run);
      console.log(
        `  round ${round + 1} ${(side === 'ours' ? 'ours' : peerName).padEnd(8)} ${run.ms.toFixed(0).padStart(7)} ms  peak ${run.peakMb.toFixed(0)} MB (+${run.growthMb.toFixed(0)} MB)`,
      );
    }
  }
  return runs;
}

/** Whether psql is on this machine: the PostgreSQL side needs it. */
function hasPsql(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = spawn('psql', ['--version'], { stdio: 'ignore' });
    probe.on('error', () => resolve(false));
    probe.on('close', (code) => resolve(code === 0));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-export-bench-'));
  cleanups.push({ name: 'remove the database', run: () => rmSync(dir, { recursive: true, force: true }) });
  const file = join(dir, 'export.db');
  process.stdout.write(`filling ${ROWS.toLocaleString('en')} products… `);
  console.log(`${(await fillProducts(SPEC, file, ROWS)).toFixed(1)} s`);
  const sqlite = await serveForBench(SPEC, file);
  const sqliteRuns = await rounds(
    'sqlite3',
    () => exportOurs(sqlite.url, sqlite.headers, sqlite.child.pid ?? 0),
    () => exportSqlite(file),
  );
  await sqlite.stop();
  const sqliteVersion = await new Promise<string>((resolve) => {
    const probe = spawn('sqlite3', ['-version']);
    let text = '';
    probe.stdout.on('data', (chunk: Buffer) => {
      text += chunk;
    });
    probe.on('close', () => resolve(text.trim().split(' ')[0] ?? ''));
  });
  write('export-csv-sqlite', sqliteRuns, {
    peerName: 'sqlite3 -csv on the same file',
    notes:
      `GET /api/products?sort=name with Accept: text/csv, signed in as the owner, from ninefold serve on a SQLite file of ${ROWS.toLocaleString('en')} products filled into the table the store made; ` +
      `the peer is sqlite3 -csv -header selecting the same columns in the same order. Peak memory is the resident memory of the server process (all of it, from its start; oursGrowthMb is its rise during the export) and of the sqlite3 process, sampled every 10 ms. ` +
      `${ROUNDS} rounds a side, alternating; median time, highest peak.`,
    sqlite3: sqliteVersion,
  });

  if (process.env.BENCH_SKIP_POSTGRES === '1') return;
  if (!(await hasPsql())) {
    console.log('PostgreSQL side skipped: psql is not on this machine');
    return;
  }
  const url = await freshPostgres(PG_ADMIN_URL, 'export');
  process.stdout.write(`filling ${ROWS.toLocaleString('en')} products into PostgreSQL… `);
  console.log(`${(await fillPostgresProducts(SPEC, url, ROWS, 'parts')).toFixed(1)} s`);
  const postgres = await serveForBench(SPEC, url);
  const postgresRuns = await rounds(
    'psql',
    () => exportOurs(postgres.url, postgres.headers, postgres.child.pid ?? 0),
    () => exportPsql(url),
  );
  await postgres.stop();
  write('export-csv-postgres', postgresRuns, {
    peerName: 'psql \\copy (SELECT … ORDER BY name) TO STDOUT WITH CSV HEADER, on the same database',
    notes:
      `GET /api/products?sort=name with Accept: text/csv, signed in as the owner, from ninefold serve on a PostgreSQL database of ${ROWS.toLocaleString('en')} products filled into the tables the store made; ` +
      "the peer is psql's \\copy of the same columns in the same order. Peak memory is the resident memory of the server process and of the psql process (the database's own backends are not counted on either side), sampled every 10 ms. " +
      `${ROUNDS} rounds a side, alternating; median time, highest peak.`,
  });
}

function write(
  name: string,
  runs: Record<'ours' | 'peer', Run[]>,
  about: { peerName: string; notes: string } & Record<string, unknown>,
): void {
  const summary = (list: Run[]) => ({
    medianMs: Math.round(median(list.map((run) => run.ms))),
    peakMb: Math.round(Math.max(...list.map((run) => run.peakMb))),
    growthMb: Math.round(Math.max(...list.map((run) => run.growthMb))),
  });
  const ours = summary(runs.ours);
  const peer = summary(runs.peer);
  const { peerName, notes, ...extra } = about;
  const result = {
    metric: `export of ${ROWS.toLocaleString('en')} products as CSV, to the last byte`,
    ours: ours.medianMs,
    peer: peer.medianMs,
    peerName,
    ratio: ours.medianMs / peer.medianMs,
    unit: 'ms',
    memory: {
      oursPeakMb: ours.peakMb,
      oursGrowthMb: ours.growthMb,
      peerPeakMb: peer.peakMb,
      ratio: ours.peakMb / peer.peakMb,
    },
    notes,
    rows: ROWS,
    rounds: ROUNDS,
    node: process.version,
    ...extra,
    cpus: cpus().length,
    date: new Date().toISOString(),
    loadAverage: { start: LOAD_AT_START, end: loadavg().map((value) => Math.round(value * 100) / 100) },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\n${name}: ours ${ours.medianMs} ms (peak ${ours.peakMb} MB), ${peerName.split(' ')[0]} ${peer.medianMs} ms (peak ${peer.peakMb} MB), ratio ${result.ratio.toFixed(2)}`,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
