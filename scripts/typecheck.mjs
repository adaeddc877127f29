// The type check of every TypeScript project, two at a time (the machines have two cores), each
// incremental: a second run reads what changed since the first from node_modules/.cache, so the inner
// loop (npm run test:quick) pays seconds, not the whole check.
//
// It runs TypeScript 7, the compiler in Go (the `typescript-go` alias): 12 s for the four projects on a
// fresh clone where TypeScript 5.9 took 37 s, the largest single step of `npm test` outside Vitest.
// TypeScript 5.9 stays as `typescript` for what needs its JavaScript API, which 7 does not have: the
// declarations of @ninefold/react (dts-bundle-generator) and the boundaries test. Both packages name a
// `tsc`; which one node_modules/.bin/tsc links to is npm's choice, so nothing here calls it by that name.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/typescript-go/bin/tsc', import.meta.url));
const PROJECTS = [
  'tsconfig.json',
  'packages/web/tsconfig.json',
  'packages/react/tsconfig.json',
  'e2e/tsconfig.json',
];
const CACHE = 'node_modules/.cache/ninefold-tsc';

function check(project) {
  const info = `${CACHE}/${project.replaceAll('/', '_')}.tsbuildinfo`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '-p', project, '--incremental', '--tsBuildInfoFile', info], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ project, code, output }));
  });
}

const started = Date.now();
const queue = [...PROJECTS];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift())
      results.push(await check(project));
  }),
);
const failed = results.filter((result) => result.code !== 0);
for (const result of failed) process.stdout.write(`${result.project}:\n${result.output}`);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  failed.length === 0
    ? `types: ${PROJECTS.length} projects checked in ${seconds} s`
    : `types: ${failed.length} of ${PROJECTS.length} projects have errors`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
