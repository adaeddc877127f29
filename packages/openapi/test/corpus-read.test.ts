import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { toPointer } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { readOpenApi } from '../src/index';
import { CORPUS, corpusDocuments, corpusReadOptions } from './support/corpus';

const corpus = CORPUS ?? '';

describe.skipIf(CORPUS === undefined)('the OpenAPI corpus', () => {
  it('reads every document without throwing; each reads ok or has issues with pointers', () => {
    const rows: string[] = [];
    let clean = 0;
    for (const path of corpusDocuments()) {
      const started = performance.now();
      const result = readOpenApi({ text: readFileSync(path, 'utf8'), file: path }, corpusReadOptions());
      const ms = performance.now() - started;
      const name = relative(corpus, path);
      if (result.ok) {
        clean++;
        expect(result.document, name).toBeDefined();
        expect(result.document?.openapi, name).toMatch(/^3\./);
        expect(JSON.stringify(result.document), name).not.toMatch(/"\$ref":"(?!#)/);
      } else {
        expect(result.issues.length, name).toBeGreaterThan(0);
        for (const issue of result.issues) {
          expect(Array.isArray(issue.path), name).toBe(true);
          expect(issue.source?.file, name).toBeTruthy();
        }
      }
      const errors = result.issues.filter((issue) => issue.severity === 'error');
      const first = result.issues[0];
      rows.push(
        [
          name.padEnd(58),
          result.version.padEnd(7),
          (result.ok ? 'ok' : 'ISSUES').padEnd(6),
          `${errors.length}e/${result.issues.length - errors.length}w`.padEnd(8),
          `${ms.toFixed(0)} ms`.padStart(8),
          first ? `  ${first.code} ${toPointer(first.path) || '/'}` : '',
        ].join(' '),
      );
    }
    console.log(`${rows.join('\n')}\n${clean} of ${rows.length} read without errors`);
    expect(rows.length).toBeGreaterThan(100);
  });

  it('reads the multi-file petstore (JSON and YAML) into one document with internal references', () => {
    for (const format of ['json', 'yaml']) {
      const root = join(corpus, `oai-examples/v2.0/${format}/petstore-separate/spec/swagger.${format}`);
      const result = readOpenApi({ text: readFileSync(root, 'utf8'), file: root }, corpusReadOptions());
      expect(result.issues).toEqual([]);
      const schemas = result.document?.components?.schemas ?? {};
      expect(Object.keys(schemas).sort()).toEqual(['Error', 'NewPet', 'Pet']);
      expect(JSON.stringify(result.document)).not.toMatch(/"\$ref":"(?!#)/);
    }
  });
});
