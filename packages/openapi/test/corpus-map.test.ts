import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { checkModel, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toModel } from '../src/to-model';
import { CORPUS, corpusDocuments } from './support/corpus';

function load(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  return path.endsWith('.json') ? JSON.parse(text) : parse(text);
}

const root = CORPUS ?? '';
const documents = corpusDocuments()
  .map((path) => ({ path, name: relative(root, path), doc: load(path) as Record<string, unknown> }))
  // Swagger 2.0 and multi-file documents need the reader (conversion, bundling); fragments are not documents.
  .filter(({ doc }) => typeof doc.openapi === 'string' && String(doc.openapi).startsWith('3.'));

const count = (point: Model['entities'] | Model['screens'] | Model['calls']) =>
  point.shown ? point.items.length : 0;

describe.skipIf(CORPUS === undefined)(
  'corpus: every single-file OpenAPI 3.x document maps (2.0 and multi-file ones wait for the reader)',
  () => {
    it('maps each without throwing, to a model that checks without errors', () => {
      expect(documents.length).toBeGreaterThan(80);
      const rows: string[] = [];
      for (const { name, doc } of documents) {
        const started = performance.now();
        const { model, issues, report } = toModel(doc, { file: name });
        const ms = Math.round(performance.now() - started);
        const errors = checkModel(model).filter((issue) => issue.severity === 'error');
        rows.push(
          `${name.padEnd(58)} ${String(count(model.entities)).padStart(4)} ${String(count(model.screens)).padStart(4)} ` +
            `${String(count(model.calls)).padStart(5)} ${String(issues.length).padStart(4)} ${String(errors.length).padStart(4)} ${String(ms).padStart(5)}ms`,
        );
        // A model with check errors is acceptable only when the importer said what went wrong, with pointers.
        if (errors.length > 0) {
          expect(issues.length, `${name}: ${errors[0]?.message}`).toBeGreaterThan(0);
          for (const issue of issues) expect(issue.path.length).toBeGreaterThan(0);
        }
        expect(errors, name).toEqual([]);
        expect(report.counts.mapped, name).toBeGreaterThan(0);
      }
      console.log(`${'file'.padEnd(58)} ents scrn calls issu errs  time\n${rows.join('\n')}`);
    });

    it('maps GitHub’s 13 MB document in a few seconds, to entities that are all used', () => {
      const github = documents.find(({ name }) => name.startsWith('github/'));
      expect(github).toBeDefined();
      const started = performance.now();
      const { model, report } = toModel(github?.doc ?? {}, { file: 'github' });
      expect(performance.now() - started).toBeLessThan(5000);
      expect(count(model.calls)).toBeGreaterThan(1000);
      // 969 named schemas and thousands of inline objects once made 3,421 entities, 482 of them used
      // by nothing; envelopes, error bodies, unused schemas and copies of one inline schema are no
      // entities now (923 on 23.0.2), and every entity is used by a call or by another entity's field.
      expect(count(model.entities)).toBeLessThan(1000);
      const used = new Set<string>();
      const use = (type: { kind: string; entity?: string; of?: unknown } | undefined): void => {
        if (type?.entity !== undefined) used.add(type.entity);
        if (type?.kind === 'list') use(type.of as typeof type);
      };
      const entities = model.entities.shown ? model.entities.items : [];
      for (const entity of entities) for (const field of entity.fields) use(field);
      for (const call of model.calls.shown ? model.calls.items : []) {
        for (const name of [call.entity, call.body?.entity, call.response?.entity]) if (name) used.add(name);
      }
      expect(entities.filter((entity) => !used.has(entity.name)).map((entity) => entity.name)).toEqual([]);
      // The report says what happened to each part, compactly: smaller than the model it explains.
      expect(JSON.stringify(report).length).toBeLessThan(JSON.stringify(model).length);
    });

    it('maps the Conduit 3.0 and 3.1 documents to equivalent models', () => {
      const conduit = (version: string) => {
        const found = documents.find(({ name }) => name.startsWith(`realworld/conduit-openapi-${version}`));
        return toModel(found?.doc ?? {}, { file: version }).model;
      };
      const a = conduit('3.0');
      const b = conduit('3.1');
      expect(count(a.calls)).toBe(19);
      expect(b.entities).toEqual(a.entities);
      expect(b.screens).toEqual(a.screens);
      // The two documents name different servers; everything else must agree.
      expect(b.calls.shown && b.calls.items).toEqual(a.calls.shown && a.calls.items);
    });
  },
);
