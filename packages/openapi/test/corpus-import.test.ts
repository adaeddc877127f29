import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../src/index';
import { CORPUS, corpusDocuments, corpusReadOptions } from './support/corpus';

const corpus = CORPUS ?? '';

describe.skipIf(CORPUS === undefined)('importing the whole corpus (read, map, check)', () => {
  it('imports every document or ends with issues that point into it; none is an empty client without a reason', () => {
    const rows: string[] = [];
    const tally = { clean: 0, issues: 0, failed: 0 };
    for (const path of corpusDocuments()) {
      const name = relative(corpus, path);
      const result = importOpenApi({ text: readFileSync(path, 'utf8'), file: path }, corpusReadOptions());
      const errors = result.issues.filter((issue) => issue.severity === 'error');
      if (!result.model) {
        tally.failed++;
        expect(errors.length, name).toBeGreaterThan(0);
      } else if (errors.length > 0) tally.issues++;
      else tally.clean++;
      for (const issue of result.issues) expect(Array.isArray(issue.path), name).toBe(true);
      const model = result.model;
      if (model) {
        // The failure to beat is a blank client for a valid document: whatever is not shown says why.
        for (const point of ['screens', 'entities', 'calls'] as const) {
          const value = model[point];
          if (!value.shown) expect(value.reason, `${name}: ${point}`).toBeTruthy();
        }
      }
      const count = (point: 'entities' | 'screens' | 'calls') => {
        const value = model?.[point];
        if (!value?.shown) return '-';
        return String('items' in value ? value.items.length : 0);
      };
      rows.push(
        [
          name.padEnd(58),
          result.version.padEnd(7),
          (model ? (errors.length ? 'ISSUES' : 'ok') : 'FAILED').padEnd(7),
          `entities ${count('entities')}`.padEnd(14),
          `screens ${count('screens')}`.padEnd(12),
          `calls ${count('calls')}`.padEnd(11),
          `${errors.length} errors`,
        ].join(' '),
      );
    }
    console.log(
      `${rows.join('\n')}\n${tally.clean} imported clean, ${tally.issues} with issues, ${tally.failed} failed, of ${rows.length}`,
    );
    expect(rows.length).toBeGreaterThan(100);
  });
});
