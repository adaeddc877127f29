// Run with `node --import tsx bench/contract.ts`: the contract loop on the rich example (issue 43).
// - The OpenAPI output: its size, and the time to write it against the time to load the specification it
//   comes from, interleaved in one run.
// - `ninefold verify` against the shop's prototype API (in this process, on SQLite in memory, seeded):
//   its time, the requests it sends and the checks it makes, beside Schemathesis's published figure
//   for cases per operation (100 examples per operation by default; its benchmarking guide). Verify is
//   unpaced here (the server is this process's own), so the rate is what the pair of them can do.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadSpec, openApiDocument, prototypeApi, signInRoles } from '@ninefold/model';
import { serve } from '@ninefold/server';
import { verify } from '../packages/cli/src/verify/verify';
import { median, RESULTS_DIR } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ROUNDS = Number(process.env.BENCH_CONTRACT_ROUNDS ?? 20);
const VERIFY_ROUNDS = Number(process.env.BENCH_VERIFY_ROUNDS ?? 3);
const SPEC = 'examples/shop.md';
/** Schemathesis's default: "at most 100 examples per operation" (its guide to benchmarking Schemathesis). */
const SCHEMATHESIS_CASES_PER_OPERATION = 100;

const text = readFileSync(`${ROOT}${SPEC}`, 'utf8');
const load = () => {
  const loaded = loadSpec(text, { file: SPEC });
  if (!loaded.model) throw new Error(`${SPEC} did not load`);
  return loaded.model;
};
const model = load();

const loading: number[] = [];
const writing: number[] = [];
let bytes = 0;
let gzipped = 0;
for (let round = 0; round < ROUNDS; round++) {
  let started = performance.now();
  load();
  loading.push(performance.now() - started);
  started = performance.now();
  const json = JSON.stringify(openApiDocument(model, prototypeApi(model)));
  writing.push(performance.now() - started);
  bytes = Buffer.byteLength(json);
  gzipped = gzipSync(json).length;
}

const PASSWORD = 'bench-verify-password';
const started = await serve({
  model,
  specFile: `${ROOT}${SPEC}`,
  db: ':memory:',
  seed: 5,
  port: 0,
  demoPassword: PASSWORD,
  log: () => {},
});
if (!started.ok) throw new Error(started.message);
const as = signInRoles(model).map((role) => ({
  role,
  kind: 'password' as const,
  email: `${role}@demo.test`,
  password: PASSWORD,
}));
const runs: Array<{ seconds: number; requests: number; checks: number; disagreements: number }> = [];
try {
  for (let round = 0; round < VERIFY_ROUNDS; round++) {
    const report = await verify(model, { api: `${started.server.url}api`, as, seed: 100 + round, rate: 1e6 });
    runs.push({
      seconds: report.seconds,
      requests: report.requests,
      checks: report.results.filter((r) => r.outcome !== 'not-checked').length,
      disagreements: report.results.filter((r) => r.outcome === 'disagrees').length,
    });
  }
} finally {
  await started.server.close();
}
if (runs.some((run) => run.disagreements > 0)) throw new Error('verify disagreed with the prototype API');
const operations = model.calls.shown ? model.calls.items.length : 0;
const seconds = median(runs.map((r) => r.seconds));
const requests = median(runs.map((r) => r.requests));
const checks = median(runs.map((r) => r.checks));
const notes = `on Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at the end.`;

const output = {
  metric:
    'the OpenAPI 3.1 contract of the rich example: the time to write it against the time to load the specification',
  unit: 'ms',
  ours: median(writing),
  peer: median(loading),
  peerName: `loadSpec of ${SPEC} (read, check, normalise)`,
  ratio: median(writing) / median(loading),
  bytes,
  gzippedBytes: gzipped,
  notes: `median of ${ROUNDS} interleaved rounds, in one process, ${notes}`,
};
const verifyResult = {
  metric:
    'ninefold verify of the rich example against its prototype API (SQLite in memory, 5 records each, four roles)',
  unit: 'requests per operation',
  ours: requests / operations,
  peer: SCHEMATHESIS_CASES_PER_OPERATION,
  peerName:
    "Schemathesis's default examples per operation (published; it checks shapes and 5xx, not the rules)",
  ratio: requests / operations / SCHEMATHESIS_CASES_PER_OPERATION,
  seconds,
  requests,
  requestsPerSecond: requests / seconds,
  checksMade: checks,
  operations,
  notes: `median of ${VERIFY_ROUNDS} runs, unpaced, server in the same process, ${notes} Each run is a whole verify: sign-ins, every point, and removing what it made.`,
};
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(`${RESULTS_DIR}contract-openapi-output.json`, `${JSON.stringify(output, null, 2)}\n`);
writeFileSync(`${RESULTS_DIR}contract-verify.json`, `${JSON.stringify(verifyResult, null, 2)}\n`);
console.log(JSON.stringify({ output, verify: verifyResult }, null, 2));
