// The specification an import writes (`ninefold import`, the playground's import) is YAML text made by
// yamlText and read back by the loader's YAML reader: on the corpus's documents that import without
// errors, the text is the document, value for value (loading a written example back to its model is
// packages/model's to-document test). Descriptions written by others hold what quoting must get right:
// text that looks like a number, a date or a boolean, colons, hashes, quotes, line breaks, emoji.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { toDocument, yamlText } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importOpenApi } from '../src/index';
import { CORPUS, corpusDocuments, corpusReadOptions } from './support/corpus';

describe.skipIf(CORPUS === undefined)('an imported specification written as YAML', () => {
  it('is the document, value for value, for every document of the corpus under 1 MB that imports without errors', () => {
    let written = 0;
    // Under 1 MB: the few larger ones (GitHub's 13 MB) took four fifths of the time and hold no kind of text
    // the others lack; their writing is measured in bench/openapi-import-process.ts.
    for (const path of corpusDocuments().filter((path) => statSync(path).size < 1_048_576)) {
      const name = relative(CORPUS ?? '', path);
      const result = importOpenApi({ text: readFileSync(path, 'utf8'), file: path }, corpusReadOptions());
      if (!result.model || result.issues.some((issue) => issue.severity === 'error')) continue;
      const document = toDocument(result.model);
      const text = yamlText(document);
      // The text is the document, value for value, as the loader's YAML reader sees it.
      expect(parse(text), name).toEqual(JSON.parse(JSON.stringify(document)));
      written++;
    }
    expect(written).toBeGreaterThan(80);
  }, 120_000);
});
