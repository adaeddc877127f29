// Benchmarks, each side by side with its peer in one run, written to bench/results/ as ratios.
// Run with `npm run bench`. Figures are medians of interleaved runs: the machines are shared and noisy.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadSpec } from '@ninefold/model';
import { parse as parseYaml } from 'yaml';
import { generateSpecYaml } from './generate-spec';
import { median, RESULTS_DIR } from './support/figures';

const RESULTS = RESULTS_DIR;
/** Entities and fields of the generated specification; the smoke run of the test suite makes them few. */
const ENTITIES = Number(process.env.BENCH_ENTITIES ?? 200);
const FIELDS = Number(process.env.BENCH_FIELDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

interface Result {
  metric: string;
  ours: number;
  peer: number;
  peerName: string;
  ratio: number;
  unit: string;
  /** What exactly was measured, so the figure can be read without the code. */
  notes: string;
}

/** Runs both sides alternately so that drift in machine load hits them equally. */
function compare(ours: () => unknown, peer: () => unknown, rounds: number): { ours: number; peer: number } {
  for (let i = 0; i < 3; i++) {
    ours();
    peer();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let start = performance.now();
    ours();
    a.push(performance.now() - start);
    start = performance.now();
    peer();
    b.push(performance.now() - start);
  }
  return { ours: median(a), peer: median(b) };
}

function write(name: string, result: Result): void {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(`${RESULTS}${name}.json`, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `${result.metric}: ours ${result.ours.toFixed(1)} ${result.unit}, ${result.peerName} ${result.peer.toFixed(1)} ${result.unit}, ratio ${result.ratio.toFixed(2)}`,
  );
}

function benchLoadCheck(): void {
  const text = generateSpecYaml(ENTITIES, FIELDS);
  const check = loadSpec(text, { file: 'generated.yaml' });
  if (!check.ok)
    throw new Error(`the generated spec must be valid: ${JSON.stringify(check.issues.slice(0, 3))}`);
  const times = compare(
    () => loadSpec(text, { file: 'generated.yaml' }),
    () => parseYaml(text),
    ROUNDS,
  );
  write('load-check-yaml', {
    metric: `load and check a ${ENTITIES}-entity, ${FIELDS}-field YAML specification`,
    ours: times.ours,
    peer: times.peer,
    peerName: 'yaml.parse (yaml 2) of the same text',
    ratio: times.ours / times.peer,
    unit: 'ms',
    notes: `${text.split('\n').length} lines, ${(text.length / 1024).toFixed(0)} KiB; median of ${ROUNDS} interleaved runs on Node ${process.version}. Goal: ratio <= 3.`,
  });
}

benchLoadCheck();
