// Run with `node --import tsx bench/command-start.ts`: how long the ninefold command takes as a whole
// process, against `vite --help` and `tsc --version` (what every web engineer starts many times a day),
// interleaved in one run. Also `check` with the sources run through tsx, as the command started before it
// was built, so the gain stays visible.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { median, RESULTS_DIR } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);

const BIN = 'bin/ninefold.js';
const THROUGH_TSX = [
  '--import',
  'tsx',
  '--input-type=module',
  '-e',
  "const { main } = await import('./packages/cli/src/main.ts'); process.exitCode = await main(process.argv.slice(1));",
];

/** One process per entry, each run as `node ...args`, its exit code checked. */
const COMMANDS = {
  help: [BIN, '--help'],
  checkEmpty: [BIN, 'check', 'examples/empty.md'],
  checkRich: [BIN, 'check', 'examples/shop.md'],
  viteHelp: ['node_modules/vite/bin/vite.js', '--help'],
  tscVersion: ['node_modules/typescript/bin/tsc', '--version'],
  checkEmptyThroughTsx: [...THROUGH_TSX, 'check', 'examples/empty.md'],
} as const;
type Name = keyof typeof COMMANDS;

function timeOnce(args: readonly string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const took = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  return took;
}

// The first run builds the command if its sources changed since the last build: not measured.
timeOnce(COMMANDS.help);
const samples = Object.fromEntries(Object.keys(COMMANDS).map((name) => [name, [] as number[]])) as Record<
  Name,
  number[]
>;
for (let round = 0; round < RUNS; round++) {
  for (const name of Object.keys(COMMANDS) as Name[]) samples[name].push(timeOnce(COMMANDS[name]));
}
const ms = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => [name, Math.round(median(values))]),
) as Record<Name, number>;

const result = {
  metric: 'the ninefold command as a whole process, against vite --help and tsc --version',
  unit: 'ms',
  ours: ms.help,
  peer: ms.viteHelp,
  peerName: 'vite --help (Vite 8)',
  ratio: ms.help / ms.viteHelp,
  medians: ms,
  ratios: {
    helpAgainstVite: ms.help / ms.viteHelp,
    helpAgainstTsc: ms.help / ms.tscVersion,
    checkEmptyAgainstTheSourcesThroughTsx: ms.checkEmpty / ms.checkEmptyThroughTsx,
  },
  goals: { helpAgainstVite: '<= 1.0', checkEmptyMs: '<= 500', checkRichMs: '<= 1000' },
  notes: `median of ${RUNS} interleaved runs of each, whole processes, on Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at the end.`,
};
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(`${RESULTS_DIR}command-start.json`, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
