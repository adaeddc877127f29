#!/usr/bin/env node
// The command runs as JavaScript built from its TypeScript sources, built again whenever they changed
// (scripts/command-build.mjs), so starting it transpiles nothing.
import { pathToFileURL } from 'node:url';
import { commandDir } from '../scripts/command-build.mjs';

// Errors name the sources' files and lines, not the bundle's.
process.setSourceMapsEnabled(true);
const { main } = await import(pathToFileURL(`${await commandDir()}/main.js`).href);
process.exitCode = await main(process.argv.slice(2));
