import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Model } from '@ninefold/model';
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

/** The parts of a model that two versions of one document must agree on, in an order-free form. */
function comparable(model: Model | undefined) {
  if (!model) throw new Error('no model');
  const byName = <T extends { name: string }>(items: T[]) =>
    [...items].sort((a, b) => a.name.localeCompare(b.name));
  const byJson = <T>(items: T[]) =>
    [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    entities: model.entities.shown ? byName(model.entities.items) : [],
    screens: model.screens.shown ? model.screens.items : [],
    calls: model.calls.shown ? model.calls.items : [],
    validation: model.validation.shown ? byJson(model.validation.fields) : [],
    errors: model.errors.shown ? model.errors.entries : [],
    constants: model.constants.shown ? model.constants.items : [],
    states: model.states.shown ? model.states.machines : [],
    roles: model.roles,
  };
}

function withoutParameterWording(model: ReturnType<typeof comparable>) {
  return {
    ...model,
    calls: model.calls.map((call) => ({
      ...call,
      parameters: call.parameters
        .map(({ description: _, ...parameter }) => parameter)
        .sort((a, b) => a.name.localeCompare(b.name)),
    })),
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

  it('gives equivalent models for Swagger 2.0, OpenAPI 3.0 and 3.1: whole entities, screens, calls and rules', () => {
    const [v20, v30, v31] = (['2.0', '3.0', '3.1'] as const).map((version) =>
      comparable(conduit[version].model),
    );
    if (!v20 || !v30) throw new Error('Conduit did not import');
    // 3.0 and 3.1 differ in their version and servers only, which are not compared.
    expect(v31).toEqual(v30);
    // Swagger 2.0 differs where its document does, and only there:
    //  - its UpdateUser has a "token" field where 3.x has "password";
    //  - its tags operation has no operationId, so it is named "getTags" from its path (3.x: "GetTags");
    //  - its limit and offset parameters come in the other order, with other descriptions.
    // Its named answer wrappers (SingleArticleResponse, MultipleArticlesResponse, TagsResponse, ...) are
    // no entities, as the inline answers of 3.x are not, and its named request wrappers are the entities
    // that 3.x names after components.requestBodies (NewArticleRequest, ...).
    const updateUser = (model: typeof v20) => model.entities.find((entity) => entity.name === 'UpdateUser');
    expect(updateUser(v20)?.fields.map((field) => field.name)).toContain('token');
    expect(updateUser(v30)?.fields.map((field) => field.name)).toContain('password');
    expect(v20.calls.map((call) => call.name)).toContain('getTags');
    const as3 = structuredClone(v20);
    for (const field of updateUser(as3)?.fields ?? []) if (field.name === 'token') field.name = 'password';
    for (const call of as3.calls) if (call.name === 'getTags') call.name = 'GetTags';
    expect(withoutParameterWording(as3)).toEqual(withoutParameterWording(v30));
    expect(v20.entities.map((entity) => entity.name)).not.toContain('TagsResponse');
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
