import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { diffModels } from '../src/authoring/diff';
import { loadSpec } from '../src/load';
import type { Model } from '../src/model';

// The tool library (test/fixtures/extension): a domain of our own, changed one way at a time.
const FILE = resolve(import.meta.dirname, '../../../test/fixtures/extension/tool-library.yaml');
const TEXT = readFileSync(FILE, 'utf8');

function load(text: string, file = 'library.yaml'): Model {
  const loaded = loadSpec(text, { file });
  if (!loaded.ok || !loaded.model) throw new Error(loaded.issues.map((issue) => issue.message).join('; '));
  return loaded.model;
}

/** The fixture with one edit made to its document. */
// biome-ignore lint/suspicious/noExplicitAny: a test edits the parsed YAML freely; the loader checks the result
type Editable = Record<string, any>;

function changed(edit: (document: Editable) => void): Model {
  const document = parse(TEXT) as Editable;
  edit(document);
  return load(stringify(document));
}

const base = load(TEXT);
const lines = (model: Model) =>
  diffModels(base, model).map(
    (change) => `${change.area} ${change.change} ${change.name}${change.detail ? `: ${change.detail}` : ''}`,
  );

describe('what a change of specification does', () => {
  it('finds nothing between a specification and itself, nor between its Markdown and YAML forms', () => {
    expect(diffModels(base, load(TEXT))).toEqual([]);
    const shop = (name: string) => {
      const file = resolve(import.meta.dirname, '../../../examples', name);
      return load(readFileSync(file, 'utf8'), file);
    };
    expect(diffModels(shop('shop.md'), shop('shop.yaml'))).toEqual([]);
  });

  it('names every field removed, one variant per field', () => {
    const document = parse(TEXT) as {
      entities: Record<string, { fields: Record<string, unknown>; key?: string; display?: string }>;
    };
    for (const [entity, definition] of Object.entries(document.entities)) {
      for (const field of Object.keys(definition.fields)) {
        if (field === definition.key || field === definition.display) continue;
        const without = changed((doc) => {
          delete doc.entities[entity].fields[field];
          // What named the field goes with it, so that the variant still loads.
          for (const screen of Object.values(doc.screens) as Array<{
            columns?: string[];
            fields?: string[];
          }>) {
            if (screen.columns) screen.columns = screen.columns.filter((column) => column !== field);
            if (screen.fields) screen.fields = screen.fields.filter((name) => name !== field);
          }
          delete doc.validation.fields[`${entity}.${field}`];
          if (doc.states[`${entity}.${field}`]) doc.states = 'not shown';
        });
        expect(lines(without)).toContain(`field removed ${entity}.${field}`);
      }
    }
  });

  it("says how a field's type, flags and words changed", () => {
    const model = changed((doc) => {
      doc.entities.Tool.fields.rating = { kind: 'number', readOnly: true, label: 'Score' };
      doc.entities.Tool.fields.condition.values = ['good', 'broken'];
    });
    expect(lines(model)).toEqual([
      'field changed Tool.condition: type enum (good, worn, broken) → enum (good, broken)',
      'field changed Tool.rating: type integer → number; read-only no → yes; widget stars → none; label none → Score; help From 1 to 5 stars. → none',
    ]);
  });

  it('reports screens, permissions, transitions, calls, constraints and points, each as added, removed or changed', () => {
    const model = changed((doc) => {
      delete doc.screens['tool-label'];
      doc.screens.tools.columns = ['name', 'rating'];
      doc.screens.broken = { kind: 'list', title: 'Broken', route: '/broken', entity: 'Tool' };
      doc.roles.roles.member.can.Tool = ['read', 'update'];
      doc.roles.roles.repairer = {
        label: 'Repairer',
        can: { Tool: { actions: ['read', 'update'], where: 'record.condition == "broken"' } },
      };
      doc.states['Loan.status'].transitions.return.roles = ['librarian', 'member'];
      doc.calls.operations.getTool.path = '/tool/{id}';
      delete doc.calls.operations.deleteTool;
      doc.validation.fields['Tool.rating'].max = 10;
      doc.errors = [{ status: 409, code: 'ON_LOAN', message: 'The tool is out on loan.', action: 'go-back' }];
    });
    expect(lines(model)).toEqual([
      'point added errors: now shown',
      'screen removed tool-label',
      'screen changed tools: columns name, condition, rating → name, rating',
      'screen added broken',
      'constraint changed Tool.rating: max 5 → 10',
      'transition changed Loan.status return: roles librarian → librarian, member',
      'role added repairer',
      'permission changed member on Tool: actions read → read, update',
      'permission added repairer on Tool',
      'call removed deleteTool',
      'call changed getTool: path /tools/{id} → /tool/{id}',
      'error added ON_LOAN 409',
    ]);
  });
});
