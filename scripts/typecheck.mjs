// The type check of every TypeScript project, two at a time (the machines have two cores), each
// incremental: a second run reads what changed since the first from node_modules/.cache, so the inner
// loop (npm run test:quick) pays seconds, not the whole check.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
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
