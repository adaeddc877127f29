import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Model } from '@ninefold/spec';
import { describe, expect, it } from 'vitest';
import { importOpenApi, looksLikeOpenApi } from '../src/index';
import { CORPUS, corpusPath } from './support/corpus';

const root = resolve(import.meta.dirname, '../../..');

function importFile(path: string) {
  const file = corpusPath(path);
  return importOpenApi(
    { text: readFileSync(file, 'utf8'), file },
    { readFile: (other) => readFileSync(other, 'utf8') },
  );
}

/** What a person sees of a model: its entities, screens and calls, without the documents' wording. */
function outline(model: Model | undefined) {
  if (!model) return undefined;
  return {
    entities: model.entities.shown ? model.entities.items.map((entity) => entity.name).sort() : [],
    screens: model.screens.shown
      ? model.screens.items.map((screen) => `${screen.kind} ${screen.route}`).sort()
      : [],
    calls: model.calls.shown
      ? model.calls.items
          .map((call) => `${call.method} ${call.path} ${call.purpose} ${call.entity ?? ''}`)
          .sort()
      : [],
  };
}

describe.skipIf(CORPUS === undefined)('importOpenApi: read, map and check in one step', () => {
  const conduit =
    CORPUS === undefined
      ? ({} as never)
      : {
          '2.0': importFile('realworld/conduit-swagger-2.0-2021.json'),
          '3.0': importFile('realworld/conduit-openapi-3.0-2024-10.yml'),
          '3.1': importFile('realworld/conduit-openapi-3.1-v1.1.0.yml'),
        };

  it('imports the three Conduit documents without errors', () => {
    for (const [version, result] of Object.entries(conduit)) {
      expect(
        result.issues.filter((issue) => issue.severity === 'error'),
        version,
      ).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.coverage?.shown).toContain('calls');
    }
  });

  it('gives the same entities, screens and calls for OpenAPI 3.0 and 3.1 of the same API', () => {
    const v30 = outline(conduit['3.0'].model);
    expect(v30?.entities.length).toBeGreaterThan(0);
    expect(outline(conduit['3.1'].model)).toEqual(v30);
  });

  it('gives the same screens and the same calls (method, path, purpose) for Swagger 2.0', () => {
    // Not yet the same entities: 2.0 names the tags answer (TagsResponse) where 3.x writes it inline.
    const calls = (model: Model | undefined) =>
      model?.calls.shown
        ? model.calls.items.map((call) => `${call.method} ${call.path} ${call.purpose}`).sort()
        : [];
    expect(outline(conduit['2.0'].model)?.screens).toEqual(outline(conduit['3.0'].model)?.screens);
    expect(calls(conduit['2.0'].model)).toEqual(calls(conduit['3.0'].model));
  });

  it('tells an OpenAPI document from a nine-point specification', () => {
    expect(
      looksLikeOpenApi(readFileSync(corpusPath('realworld/conduit-openapi-3.1-v1.1.0.yml'), 'utf8')),
    ).toBe(true);
    expect(
      looksLikeOpenApi(readFileSync(corpusPath('realworld/conduit-swagger-2.0-2021.json'), 'utf8')),
    ).toBe(true);
    expect(looksLikeOpenApi(readFileSync(resolve(root, 'examples/shop.yaml'), 'utf8'))).toBe(false);
    expect(looksLikeOpenApi(readFileSync(resolve(root, 'examples/shop.md'), 'utf8'))).toBe(false);
  });

  it('reports a broken document with issues instead of throwing', () => {
    const result = importOpenApi({ text: 'openapi: 3.1.0\npaths: [\n', file: 'broken.yaml' });
    expect(result.ok).toBe(false);
    expect(result.model).toBeUndefined();
    expect(result.issues[0]?.source?.file).toBe('broken.yaml');
  });
});
