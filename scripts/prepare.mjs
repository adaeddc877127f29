// Run by npm after install: builds the command, the web runtime and the demo's client (the shop with its
// extension module, which `npm start` serves), so that neither the first `ninefold` nor the first
// `npm start` waits for a build.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandDir } from './command-build.mjs';

const DEMO_EXTENSION = fileURLToPath(new URL('../examples/shop-ui/index.tsx', import.meta.url));

const started = Date.now();
const dir = await commandDir();
const { ensureRuntime } = await import(pathToFileURL(`${dir}/runtime.js`).href);
const log = (line) => console.log(`ninefold: ${line}`);
await ensureRuntime({ log });
await ensureRuntime({ log, extension: DEMO_EXTENSION });
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`ninefold: the command, the web client and the demo's client are built (${seconds} s)`);
