#!/usr/bin/env node
// The command runs as JavaScript built from its TypeScript sources, built again whenever they changed
// (scripts/command-build.mjs), so starting it transpiles nothing. Its chunks are readable, each part
// headed by its source's path; NODE_OPTIONS=--enable-source-maps names the sources' lines in a stack
// trace too, for 30 ms more at each start.
import { pathToFileURL } from 'node:url';
import { commandDir } from '../scripts/command-build.mjs';

const { main } = await import(pathToFileURL(`${await commandDir()}/main.js`).href);
process.exitCode = await main(process.argv.slice(2));
