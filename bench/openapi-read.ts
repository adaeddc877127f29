// Run with `node --expose-gc --import tsx bench/openapi-read.ts`: reading GitHub's 13 MB OpenAPI description
// (parse, bundle, check every reference) against JSON.parse of the same text, interleaved, in one run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { readOpenApi } from '../packages/openapi/src/index';
import { RESULTS_DIR } from './support/figures';
import { againstJsonParse, provenance, readGithub } from './support/heap-runs';

const RESULTS = RESULTS_DIR;
const RUNS = Number(process.env.BENCH_OPENAPI_RUNS ?? 9);
const WARM_UP = 1;

const text = readGithub();
const check = readOpenApi({ text, file: 'github.json' });
if (!check.ok) throw new Error(`GitHub's document did not read cleanly: ${check.issues[0]?.message}`);

const result = {
  metric: "read GitHub's OpenAPI description (13 MB JSON, 1,223 operations) into one bundled 3.x document",
  ...againstJsonParse(text, () => readOpenApi({ text, file: 'github.json' }).document, RUNS, WARM_UP),
  notes: `${provenance(text, RUNS, WARM_UP)} Goal: ratio <= 3.`,
};
mkdirSync(RESULTS, { recursive: true });
writeFileSync(`${RESULTS}openapi-read-github.json`, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
