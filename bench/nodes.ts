// Many nodes on one PostgreSQL: two `ninefold serve` processes against one, side by side in one run, and
// how fast a write on one node reaches event streams open on the other. Written to
// bench/results/nodes-*.json and events-fanout-postgres.json. Run with `npm run bench:nodes` (about two
// minutes; needs PostgreSQL).
//
// Throughput: autocannon drives one node with 10 connections, then both nodes with 5 each (the same
// 10 in all), in turns whose order flips every round; figures are medians over the rounds. All of it
// runs on this machine: the nodes, PostgreSQL and autocannon share its cores, which the result notes.
//
// Fan-out: BENCH_STREAMS streams (default 1,000) are open on node B, read by this process with fetch as
// the client reads them; node A makes BENCH_EVENTS writes (default 50), one every 100 ms. Each stream's
// delay for each write is from the write's answer to the event's arrival. The same writes made on node B
// itself (the streams' own node) are the baseline: the ratio is what crossing nodes costs.
//
// Environment: BENCH_ROUNDS (3), BENCH_SECONDS (10; warm-up 2), BENCH_STREAMS, BENCH_EVENTS,
// BENCH_PG_URL (an admin database, default postgres://postgres@127.0.0.1:5432/postgres).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AutocannonRequest, autocannon, loadLength } from './support/autocannon';
import { freshPostgres, signInAsOwner, startServe } from './support/child-servers';
import { cleanUp } from './support/clean-up';
import { median, RESULTS_DIR } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = join(ROOT, 'examples/shop.yaml');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Math.min(2, DURATION);
const CONNECTIONS = 10;
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LIST = '/api/products?page=2&limit=50';
interface Node {
  url: string;
  output: () => string;
}

function startNode(db: string, seed: boolean): Promise<Node> {
  return startServe(SPEC, db, seed ? ['--seed', '200'] : []);
}

let sku = 0;
function createRequest(headers: Record<string, string>): AutocannonRequest {
  return {
    method: 'POST',
    path: '/api/products',
    headers: { ...headers, 'content-type': 'application/json' },
    setupRequest: (request) => {
      sku++;
      return {
        ...request,
        body: JSON.stringify({
          sku: `ND-${String(sku).padStart(6, '0')}`,
          name: `Node product ${sku}`,
          category: 'rigging',
          price: 10,
          stock: 5,
        }),
      };
    },
  };
}

/** req/s over the given nodes at once, the connections split between them; any failure throws. */
async function throughput(nodes: Node[], request: AutocannonRequest, seconds: number): Promise<number> {
  const runs = await Promise.all(
    nodes.map((node) =>
      autocannon({
        url: node.url,
        connections: CONNECTIONS / nodes.length,
        ...loadLength(seconds),
        requests: [request],
      }),
    ),
  );
  for (const run of runs) {
    if (run.non2xx > 0 || run.errors > 0) {
      throw new Error(`${run.non2xx} non-2xx answers, ${run.errors} errors:\n${nodes[0]?.output()}`);
    }
  }
  return runs.reduce((sum, run) => sum + run.requests.average, 0);
}

/** Opens `count` event streams on a node, as the client does: fetch, the token in a header. */
async function openStreams(node: Node, headers: Record<string, string>, count: number) {
  const arrivals = new Map<string, number[]>();
  const controller = new AbortController();
  const opened: Promise<void>[] = [];
  for (let index = 0; index < count; index++) {
    opened.push(
      (async () => {
        const answer = await fetch(`${node.url}/api/_events`, { headers, signal: controller.signal });
        if (answer.status !== 200) throw new Error(`a stream answered ${answer.status}`);
        const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
        const decoder = new TextDecoder();
        let text = '';
        void (async () => {
          for (;;) {
            const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
            if (chunk.done) return;
            const at = performance.now();
            text += decoder.decode(chunk.value, { stream: true });
            for (const [, name] of text.matchAll(/"name":"(Fan-out [^"]+)"/g)) {
              if (name === undefined) continue;
              const list = arrivals.get(name) ?? [];
              list.push(at);
              arrivals.set(name, list);
            }
            text = text.slice(text.lastIndexOf('\n\n') + 2);
          }
        })();
      })(),
    );
  }
  await Promise.all(opened);
  return { arrivals, close: () => controller.abort() };
}

/** Writes one product at a time on `writer`; answers each delay (ms) from a write's answer to its event. */
async function fanOut(
  writer: Node,
  headers: Record<string, string>,
  streams: Awaited<ReturnType<typeof openStreams>>,
  label: string,
) {
  const delays: number[] = [];
  for (let index = 0; index < EVENTS; index++) {
    const name = `Fan-out ${label} ${index}`;
    const answer = await fetch(`${writer.url}/api/customers`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name, email: `${label}${index}@fan.test`, active: true }),
    });
    if (answer.status !== 201) throw new Error(`a write answered ${answer.status}`);
    const written = performance.now();
    const deadline = written + 10_000;
    while ((streams.arrivals.get(name)?.length ?? 0) < STREAMS && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const arrived = streams.arrivals.get(name) ?? [];
    if (arrived.length < STREAMS) throw new Error(`${name}: ${arrived.length} of ${STREAMS} streams told`);
    for (const at of arrived) delays.push(Math.max(0, at - written));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return delays.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

function write(name: string, result: Record<string, unknown>): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `wrote ${name}.json: ${JSON.stringify({ ours: result.ours, peer: result.peer, ratio: result.ratio })}`,
  );
}

async function main() {
  const load = loadavg().map((value) => Math.round(value * 100) / 100);
  const db = await freshPostgres(PG_ADMIN_URL, 'nodes');
  const a = await startNode(db, true);
  const b = await startNode(db, false);
  const headers = await signInAsOwner('node A', a.url, a.output);
  const machine = {
    node: process.version,
    cpus: cpus().length,
    loadAtStart: load,
    date: new Date().toISOString(),
  };
  const note = `Both nodes, PostgreSQL and autocannon share this machine's ${cpus().length} cores: a second node can only add what the first leaves idle. autocannon, ${CONNECTIONS} connections in all (split between the nodes), ${WARMUP} s warm-up then ${DURATION} s, median of ${ROUNDS} interleaved rounds.`;

  for (const [kind, request] of [
    ['list', { method: 'GET', path: LIST, headers }],
    ['create', createRequest(headers)],
  ] as const) {
    const one: number[] = [];
    const two: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['one', 'two'] : ['two', 'one'];
      for (const side of order) {
        const nodes = side === 'one' ? [a] : [a, b];
        await throughput(nodes, request, WARMUP);
        const rps = await throughput(nodes, request, DURATION);
        (side === 'one' ? one : two).push(rps);
        console.log(`  ${kind} on ${side} node${side === 'one' ? '' : 's'}: ${rps.toFixed(0)} req/s`);
      }
    }
    const ours = median(two);
    const peer = median(one);
    write(`nodes-${kind}-postgres`, {
      metric: `${kind === 'list' ? 'list a page of 50 products' : 'create a product'} per request, two nodes on one PostgreSQL against one node`,
      ours,
      peer,
      peerName: 'one node on the same database',
      ratio: ours / peer,
      unit: 'req/s',
      notes: `${kind === 'list' ? `GET ${LIST}` : 'POST /api/products, a unique sku each'}, signed in as the owner (one token, verified by both nodes). ${note}`,
      rounds: { twoNodes: two.map(Math.round), oneNode: one.map(Math.round) },
      ...machine,
    });
  }

  const streams = await openStreams(b, headers, STREAMS);
  const across = await fanOut(a, headers, streams, 'across');
  const same = await fanOut(b, headers, streams, 'same');
  streams.close();
  const p = (sorted: number[]) => ({ p50: percentile(sorted, 50), p99: percentile(sorted, 99) });
  const crossing = p(across);
  const local = p(same);
  write('events-fanout-postgres', {
    metric: `event delay p99, a write on node A to ${STREAMS} streams open on node B`,
    ours: crossing.p99,
    peer: local.p99,
    peerName: 'the same writes made on node B itself',
    ratio: crossing.p99 / Math.max(local.p99, 0.001),
    unit: 'ms',
    p50Ms: crossing.p50,
    p99Ms: crossing.p99,
    sameNodeP50Ms: local.p50,
    sameNodeP99Ms: local.p99,
    deliveries: across.length,
    notes: `${EVENTS} writes, one every 100 ms; each delay is from the write's 201 answer to the event's arrival on a stream (${STREAMS} streams, read with fetch by this process, which is itself busy reading them all). Across nodes the event goes through PostgreSQL NOTIFY to node B's listener, which reads it once and sends it to every stream.`,
    ...machine,
  });
}

main()
  .then(() => cleanUp())
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exitCode = 1;
  });
