// Run with `node --expose-gc --import tsx bench/openapi-import.ts`: the whole import of GitHub's 13 MB
// OpenAPI description (read, map to the nine-point model with its report, check the model) against
// JSON.parse of the same text, interleaved, in one run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { importOpenApi } from '../packages/openapi/src/index';
import { RESULTS_DIR } from './support/figures';
import { againstJsonParse, provenance, readGithub } from './support/heap-runs';

const RESULTS = RESULTS_DIR;
const RUNS = Number(process.env.BENCH_OPENAPI_RUNS ?? 9);
const WARM_UP = 2;

const text = readGithub();
const check = importOpenApi({ text, file: 'github.json' });
if (!check.ok || !check.model || !check.report)
  throw new Error(`GitHub's document did not import cleanly: ${check.issues[0]?.message}`);
const model = check.model;
const count = (point: { shown: boolean; items?: unknown[] }) =>
  point.shown ? (point.items?.length ?? 0) : 0;
const figures = {
  entities: count(model.entities),
  embedded: model.entities.shown ? model.entities.items.filter((entity) => entity.embedded).length : 0,
  screens: count(model.screens),
  calls: count(model.calls),
  modelBytes: JSON.stringify(model).length,
  reportBytes: JSON.stringify(check.report).length,
  reportEntries: Object.values(check.report.counts).reduce((sum, n) => sum + n, 0),
  issues: check.issues.length,
};

const result = {
  metric:
    "import GitHub's OpenAPI description (13 MB JSON, 1,223 operations): read, map to the nine-point model with its import report, check the model",
  ...againstJsonParse(text, () => importOpenApi({ text, file: 'github.json' }).model, RUNS, WARM_UP),
  model: figures,
  notes:
    `${provenance(text, RUNS, WARM_UP)} ` +
    `The model has ${figures.entities} entities (${figures.embedded} embedded), ${figures.screens} screens and ${figures.calls} calls ` +
    `(${(figures.modelBytes / 1048576).toFixed(1)} MB as JSON); the report ${figures.reportEntries} entries ` +
    `(${(figures.reportBytes / 1048576).toFixed(1)} MB). Goal: ratio <= 3.`,
};
mkdirSync(RESULTS, { recursive: true });
writeFileSync(`${RESULTS}openapi-import-github.json`, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
