// Run by npm after install: builds the command, the web runtime, the demo's client (the shop with its
// extension module, which `npm start` serves) and @ninefold/react (which examples/library-app mounts), so
// that neither the first `ninefold`, nor the first `npm start`, nor the library app waits for a build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandDir } from './command-build.mjs';

const DEMO_EXTENSION = fileURLToPath(new URL('../examples/shop-ui/index.tsx', import.meta.url));

const started = Date.now();
const dir = await commandDir();
const { ensureRuntime } = await import(pathToFileURL(`${dir}/runtime.js`).href);
const log = (line) => console.log(`ninefold: ${line}`);
await ensureRuntime({ log });
await ensureRuntime({ log, extension: DEMO_EXTENSION });
// A clone has the package's build script; the packed command (scripts/pack.mjs) has no such package.
const REACT_BUILD = fileURLToPath(new URL('../packages/react/scripts/build.ts', import.meta.url));
if (existsSync(REACT_BUILD)) {
  const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
  const built = spawnSync(process.execPath, [tsx, REACT_BUILD, '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  `ninefold: the command, the web client, the demo's client and @ninefold/react are built (${seconds} s)`,
);
