// Run with `node --import tsx bench/openapi-import-process.ts`: `ninefold import` of the largest OpenAPI
// descriptions we can find, as a whole process (start, read, map, check, write the specification and the
// whole report), against a Node process that only reads the file and runs JSON.parse on it; interleaved
// in one run, with each process's peak resident memory. Issue 48's goal: at most 5x, under 512 MB.
//
// The documents: GitHub's (13 MB, the shared corpus) and, unless BENCH_OCTOKIT=0, the largest files of
// @octokit/openapi, fetched once with `npm pack` into bench/.documents/: GitHub Enterprise Cloud (14 MB)
// and GitHub Enterprise Server 3.17 with every $ref inlined (60 MB, the largest under the import's
// 64 MB bound). Written to bench/results/openapi-import-process.json.
//
//   BENCH_IMPORT_PROCESS_RUNS (default 5), BENCH_OCTOKIT (default 1)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanUp, cleanups } from './support/clean-up';
import { median, RESULTS_DIR } from './support/figures';
import { GITHUB_FILE } from './support/heap-runs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env.BENCH_IMPORT_PROCESS_RUNS ?? 5);
const OCTOKIT = process.env.BENCH_OCTOKIT !== '0';
const OCTOKIT_PACKAGE = '@octokit/openapi@23.0.2';
const DOCUMENTS_DIR = join(ROOT, 'bench/.documents');
const LIMIT_MB = 512;
const GOAL_RATIO = 5;

const scratch = mkdtempSync(join(tmpdir(), 'ninefold-import-process-'));
cleanups.push({ name: 'remove the outputs', run: () => rmSync(scratch, { recursive: true, force: true }) });

/** Preloaded into both sides: writes the process's peak resident memory (KB) where BENCH_RSS_FILE says. */
const RSS_HOOK = join(scratch, 'rss-hook.cjs');
writeFileSync(
  RSS_HOOK,
  "process.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
);

/** The files of @octokit/openapi this bench reads, unpacked once. */
function octokitDocuments(): Array<{ name: string; file: string }> {
  const wanted = [
    { name: 'GitHub Enterprise Cloud', path: 'package/generated/ghec.json' },
    { name: 'GitHub Enterprise Server 3.17, dereferenced', path: 'package/generated/ghes-3.17.deref.json' },
  ];
  const target = (path: string) => join(DOCUMENTS_DIR, path.replace('package/generated/', ''));
  if (!wanted.every(({ path }) => existsSync(target(path)))) {
    mkdirSync(DOCUMENTS_DIR, { recursive: true });
    console.log(`fetching ${OCTOKIT_PACKAGE} (29 MB) into bench/.documents/ …`);
    const tarball = execFileSync('npm', ['pack', OCTOKIT_PACKAGE, '--silent'], {
      cwd: scratch,
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['xzf', tarball, ...wanted.map(({ path }) => path)], { cwd: scratch });
    for (const { path } of wanted) writeFileSync(target(path), readFileSync(join(scratch, path)));
  }
  return wanted.map(({ name, path }) => ({ name, file: target(path) }));
}

interface Run {
  ms: number;
  peakMb: number;
}

function runProcess(args: string[]): Run {
  const rssFile = join(scratch, 'rss');
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--require', RSS_HOOK, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', BENCH_RSS_FILE: rssFile },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  return { ms, peakMb: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

const ours = (file: string) => [
  'bin/ninefold.js',
  'import',
  file,
  '-o',
  join(scratch, 'spec.yaml'),
  '--report',
  join(scratch, 'report.txt'),
];
const peer = (file: string) => [
  '-e',
  "JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))",
  file,
];

function measure(name: string, file: string) {
  const runs = { ours: [] as Run[], peer: [] as Run[] };
  // One warm-up of each, so that both read the file from the page cache.
  runProcess(peer(file));
  runProcess(ours(file));
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
    for (const side of order) runs[side].push(runProcess(side === 'ours' ? ours(file) : peer(file)));
  }
  const ms = (list: Run[]) => Math.round(median(list.map((run) => run.ms)));
  const peak = (list: Run[]) => Math.round(Math.max(...list.map((run) => run.peakMb)));
  const figure = {
    document: name,
    file: relative(ROOT, file),
    mb: Number((statSync(file).size / 1048576).toFixed(1)),
    oursMs: ms(runs.ours),
    peerMs: ms(runs.peer),
    ratio: Number((ms(runs.ours) / ms(runs.peer)).toFixed(2)),
    oursPeakMb: peak(runs.ours),
    peerPeakMb: peak(runs.peer),
    goalMet: ms(runs.ours) / ms(runs.peer) <= GOAL_RATIO && peak(runs.ours) < LIMIT_MB,
  };
  console.log(
    `  ${name}: ${figure.mb} MB, ours ${figure.oursMs} ms (${figure.oursPeakMb} MB), JSON.parse ${figure.peerMs} ms (${figure.peerPeakMb} MB): ${figure.ratio}x`,
  );
  return figure;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg().map((value) => Math.round(value * 100) / 100);
  const documents = [
    { name: 'GitHub (api.github.com)', file: GITHUB_FILE },
    ...(OCTOKIT ? octokitDocuments() : []),
  ];
  const figures = documents.map(({ name, file }) => measure(name, file));
  const largest = figures.reduce((a, b) => (b.mb > a.mb ? b : a));
  const result = {
    metric:
      'ninefold import of the largest OpenAPI descriptions found, as a whole process, against a process that reads the file and runs JSON.parse on it',
    ours: largest.oursMs,
    peer: largest.peerMs,
    peerName: 'node -e "JSON.parse(readFileSync(file))" on the same file',
    ratio: largest.ratio,
    unit: 'ms',
    documents: figures,
    goal: `ratio <= ${GOAL_RATIO} and peak resident memory under ${LIMIT_MB} MB, for every document`,
    goalMet: figures.every((figure) => figure.goalMet),
    notes:
      `Each side a new Node process (${process.version}); ours is bin/ninefold.js import FILE -o spec.yaml --report report.txt, ` +
      `so the time includes the command's start and writing the specification and the whole report. Peak memory is the process's maxRSS ` +
      `(process.resourceUsage(), written at exit by a preloaded hook on both sides). ${RUNS} runs a side after one warm-up each, alternating; ` +
      'median time, highest peak. The top-level ours, peer and ratio are the largest document. ' +
      `The octokit files come from ${OCTOKIT_PACKAGE}.`,
    runs: RUNS,
    date: new Date().toISOString(),
    loadAverage: { start: loadAtStart, end: loadavg().map((value) => Math.round(value * 100) / 100) },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'openapi-import-process.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main().then(cleanUp, async (error) => {
  console.error(error);
  await cleanUp();
  process.exitCode = 1;
});
