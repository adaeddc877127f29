// A list searched (`q`, issue 20) on a million products, on SQLite and on PostgreSQL: the p99 of the
// prototype API's full-text search (FTS5; GIN-indexed tsvectors) against the same list's `contains`
// filter on the name (a LIKE/ILIKE scan, what a search is without an index), through the same server,
// in one run. Written to bench/results/search-sqlite.json and search-postgres.json.
//
//   npx tsx bench/search.ts   BENCH_SEARCH_ROWS (default 1,000,000), BENCH_SEARCH_QUERIES (default 200 a side),
//                             BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SKIP_POSTGRES=1,
//                             BENCH_SKIP_SQLITE=1
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshPostgres, serveForBench } from './support/child-servers';
import { cleanUp, cleanups } from './support/clean-up';
import { median, percentile, RESULTS_DIR } from './support/figures';
import { fillPostgresProducts, fillProducts, NAME_WORDS, wordedName } from './support/fill-products';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = join(ROOT, 'examples/shop.yaml');
const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 200);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOAD_AT_START = loadavg().map((value) => Math.round(value * 100) / 100);

/**
 * A deterministic sequence of searches a person might type, none twice (the server's read cache would
 * answer a repeat): a product's number, the start of a word (3 to 6 letters), or two words' starts.
 */
function searches(count: number): string[] {
  let seed = 20_261_126;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed;
  };
  const { first, second } = NAME_WORDS;
  const seen = new Set<string>();
  const texts: string[] = [];
  for (let index = 0; texts.length < count && index < count * 50; index++) {
    const word = second[next() % second.length] as string;
    const length = 3 + (next() % 4);
    const text =
      index % 3 === 0
        ? // A number of the last nine tenths: the start of no other product's number (but the millionth).
          String(Math.ceil(ROWS / 10) + (next() % Math.floor((ROWS * 9) / 10)))
        : index % 3 === 1
          ? word.slice(0, length)
          : `${(first[next() % first.length] as string).slice(0, length)} ${word.slice(0, 3 + (next() % 3))}`;
    if (seen.has(text)) continue;
    seen.add(text);
    texts.push(text);
  }
  return texts;
}

async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; total: number }> {
  const started = performance.now();
  const answer = await fetch(url, { headers });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
  const body = (await answer.json()) as { total: number };
  return { ms: performance.now() - started, total: body.total };
}

function serve(db: string) {
  return serveForBench(SPEC, db);
}

async function measure(side: string, server: { url: string; headers: Record<string, string> }) {
  const texts = searches(QUERIES);
  const ours: number[] = [];
  const peer: number[] = [];
  const totals: number[] = [];
  // One warm-up of each, then the two kinds alternate query by query, so that load drift hits both.
  await timed(`${server.url}/api/products?q=warm`, server.headers);
  await timed(`${server.url}/api/products?name=warm`, server.headers);
  for (const [index, text] of texts.entries()) {
    const q = encodeURIComponent(text);
    const pair = [
      async () => {
        const run = await timed(`${server.url}/api/products?q=${q}&limit=25`, server.headers);
        ours.push(run.ms);
        totals.push(run.total);
      },
      async () =>
        peer.push((await timed(`${server.url}/api/products?name=${q}&limit=25`, server.headers)).ms),
    ];
    for (const run of index % 2 === 0 ? pair : pair.reverse()) await run();
  }
  // The index must find what the names hold: a number is in its product's name (and starts the next
  // one's sku, MX-000123 being product 124's, and maybe longer numbers).
  if (totals[0] === undefined || totals[0] < 1 || totals[0] > 12) {
    throw new Error(`${side}: searching for a product's number found ${totals[0]} products`);
  }
  const p99 = (values: number[]) => Math.round(percentile(values, 99) * 10) / 10;
  const result = {
    metric: `p99 of a list search (q) on ${ROWS.toLocaleString('en')} products, ${side}`,
    ours: p99(ours),
    peer: p99(peer),
    peerName: "the same list's name (contains) filter: a LIKE scan through the same API",
    ratio: p99(ours) / p99(peer),
    unit: 'ms',
    medians: { ours: Math.round(median(ours) * 10) / 10, peer: Math.round(median(peer) * 10) / 10 },
    notes:
      `GET /api/products?q=…&limit=25 (a page and its total) signed in as the owner, from ninefold serve on ${side} holding ${ROWS.toLocaleString('en')} products named like "Bronze winch 123"; ` +
      `${QUERIES} searches a side, each asked once (so the server's read cache answers none): a product's number, the first 3 to 6 letters of a word, or of two words; the two kinds alternate query by query. Lower is better; ratio = ours / peer.`,
    rows: ROWS,
    queries: QUERIES,
    node: process.version,
    cpus: cpus().length,
    date: new Date().toISOString(),
    loadAverage: { start: LOAD_AT_START, end: loadavg().map((value) => Math.round(value * 100) / 100) },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `search-${side}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `${result.metric}: ours ${result.ours} ms, contains ${result.peer} ms (medians ${result.medians.ours} / ${result.medians.peer} ms)`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-search-bench-'));
  cleanups.push({ name: 'remove the database', run: () => rmSync(dir, { recursive: true, force: true }) });
  const file = join(dir, 'search.db');
  if (process.env.BENCH_SKIP_SQLITE !== '1') {
    process.stdout.write(`filling ${ROWS.toLocaleString('en')} products into SQLite… `);
    console.log(`${(await fillProducts(SPEC, file, ROWS, wordedName)).toFixed(1)} s`);
    const sqlite = await serve(file);
    await measure('sqlite', sqlite);
    await sqlite.stop();
  }

  if (process.env.BENCH_SKIP_POSTGRES === '1') return;
  const url = new URL(await freshPostgres(PG_ADMIN_URL, 'search'));
  process.stdout.write(`filling ${ROWS.toLocaleString('en')} products into PostgreSQL… `);
  console.log(`${(await fillPostgresProducts(SPEC, url.toString(), ROWS, 'worded')).toFixed(1)} s`);
  const postgres = await serve(url.toString());
  await measure('postgres', postgres);
  await postgres.stop();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
