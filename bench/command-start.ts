// Run with `node --import tsx bench/command-start.ts`: how long the ninefold command takes as a whole
// process, against `vite --help` and `tsc --version` (what every web engineer starts many times a day),
// interleaved in one run. Also `check` with the sources run through tsx, as the command started before it
// was built, so the gain stays visible; and the README's `npm start` to its first answer, on a new
// database each time as on a fresh clone (seeding included), after `npm ci` has built what it serves.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
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
  // The example extension held against the rich example: built, its names read, and type-checked.
  checkWithExtension: [BIN, 'check', 'examples/shop.md', '--ui', 'examples/shop-ui/index.tsx'],
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

/**
 * package.json's start script, as npm runs it but without npm in between, on a port and a database of its
 * own: from the spawn to the first 200 of its page.
 */
async function startToFirstAnswer(): Promise<number> {
  const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  const [program, ...args] = script.split(' ');
  if (program !== 'node') throw new Error(`npm start runs ${program}, not node`);
  const data = mkdtempSync(join(tmpdir(), 'ninefold-bench-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, [...args, '--port', '0', '--db', join(data, 'shop.db')], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const url = await new Promise<string>((found, fail) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
        if (match) found(match[0]);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) =>
        fail(new Error(`npm start exited with ${code} before serving:\n${output}`)),
      );
    });
    for (;;) {
      const answer = await fetch(url).catch(() => undefined);
      if (answer?.status === 200) {
        await answer.arrayBuffer();
        return performance.now() - started;
      }
      await new Promise((wait) => setTimeout(wait, 20));
    }
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    rmSync(data, { recursive: true, force: true });
  }
}

// The first run builds the command if its sources changed since the last build: not measured.
timeOnce(COMMANDS.help);
const samples = Object.fromEntries(Object.keys(COMMANDS).map((name) => [name, [] as number[]])) as Record<
  Name,
  number[]
>;
const npmStart: number[] = [];
for (let round = 0; round < RUNS; round++) {
  for (const name of Object.keys(COMMANDS) as Name[]) samples[name].push(timeOnce(COMMANDS[name]));
  npmStart.push(await startToFirstAnswer());
}
const ms = {
  ...(Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, Math.round(median(values))]),
  ) as Record<Name, number>),
  npmStartToFirstAnswer: Math.round(median(npmStart)),
};

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
  goals: {
    helpAgainstVite: '<= 1.0',
    checkEmptyMs: '<= 500',
    checkRichMs: '<= 1000',
    checkWithExtensionMs: '<= 5000',
    npmStartToFirstAnswerMs: '<= 3000',
  },
  notes: `median of ${RUNS} interleaved runs of each, whole processes, on Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at the end.`,
};
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(`${RESULTS_DIR}command-start.json`, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
