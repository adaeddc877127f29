// Run with `npx tsx bench/openapi-ui-corpus.ts [limit]`: every document of the UI corpus (chosen by hash,
// see e2e/support/ui-corpus/choose.ts) imported into `ninefold dev --api` against Prism, walked in
// Chromium as a person would. Writes bench/results/openapi-ui-corpus.json. `limit` caps the screens of
// each kind per document (default: all). For the test suite's smoke run: BENCH_UI_CORPUS_ONLY (one
// document of the corpus) and BENCH_UI_CORPUS_OUT (where to write instead).

import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { launchBrowser } from '../e2e/support/browser';
import { chooseUiCorpus } from '../e2e/support/ui-corpus/choose';
import { type DocumentFigures, driveDocument } from '../e2e/support/ui-corpus/drive';
import { corpusFigures, GOALS, missedGoals } from '../e2e/support/ui-corpus/figures';

const RESULTS = new URL('./results/', import.meta.url);
const limit = process.argv[2] === undefined ? undefined : Number(process.argv[2]);

const only = process.env.BENCH_UI_CORPUS_ONLY;
const chosen = chooseUiCorpus().filter((candidate) => only === undefined || candidate.name === only);
if (chosen.length === 0) throw new Error('The OpenAPI corpus was not found (see NINEFOLD_CORPUS).');
const browser = await launchBrowser();
const documents: Array<DocumentFigures & { kinds: string[]; seconds: number }> = [];
try {
  for (const { name, kinds } of chosen) {
    const started = Date.now();
    const figures = await driveDocument(name, { browser, ...(limit === undefined ? {} : { limit }) });
    documents.push({ ...figures, kinds, seconds: Math.round((Date.now() - started) / 1000) });
    console.log(
      `${name}: ${figures.screens} screens, ${figures.failures.length} shortfalls, ${figures.accessibility.length} axe findings`,
    );
  }
} finally {
  await browser.close();
}
const figures = corpusFigures(documents);
const result = {
  metric:
    'OpenAPI documents never written for Ninefold, each served by Prism (dynamic answers, seeded) behind ninefold dev --api and walked in Chromium: screens without page errors, lists with rows, rows that open their record (where the document has a detail call), create forms that save (Prism validates each request)',
  figures,
  goals: GOALS,
  missed: missedGoals(figures),
  documents,
  notes: `${chosen.length} documents, ${limit === undefined ? 'every screen' : `at most ${limit} screens of each kind per document`}. Commit ${commit()}, Node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}.`,
};
const out = process.env.BENCH_UI_CORPUS_OUT ?? new URL('openapi-ui-corpus.json', RESULTS).pathname;
mkdirSync(RESULTS, { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ figures, missed: result.missed }, null, 2));

function commit(): string {
  try {
    const head = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain packages', { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}
