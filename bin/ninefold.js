#!/usr/bin/env node
// The packages export TypeScript sources directly (nothing but the web runtime is built), so the command
// registers tsx's loader before it starts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../packages/cli/src/main.ts');
process.exitCode = await main(process.argv.slice(2));
