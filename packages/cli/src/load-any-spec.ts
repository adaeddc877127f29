import { readFileSync } from 'node:fs';
import { type ImportReport, importOpenApi, looksLikeOpenApi } from '@ninefold/openapi';
import { type LoadResult, loadSpec } from '@ninefold/spec';

/** A loaded specification, and the import report when it was an OpenAPI document. */
export type AnySpecResult = LoadResult & { report?: ImportReport; openApi?: boolean };

/**
 * Loads SPEC whatever it is: a nine-point specification (Markdown, YAML, JSON), or an OpenAPI document,
 * which is imported into the same model (the reader resolves the files it refers to; this reads them).
 */
export function loadAnySpec(text: string, file: string): AnySpecResult {
  if (!looksLikeOpenApi(text)) return loadSpec(text, { file });
  const imported = importOpenApi(
    { text, file },
    {
      readFile: (path) => {
        try {
          return readFileSync(path, 'utf8');
        } catch {
          return undefined;
        }
      },
    },
  );
  return {
    ok: imported.ok,
    ...(imported.model ? { model: imported.model } : {}),
    ...(imported.coverage ? { coverage: imported.coverage } : {}),
    ...(imported.report ? { report: imported.report } : {}),
    format: file.endsWith('.json') ? 'json' : 'yaml',
    issues: imported.issues,
    openApi: true,
  };
}
