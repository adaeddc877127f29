import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec, notShownModel, toDocument, yamlText } from '../src/index';

const examples = resolve(import.meta.dirname, '../../../examples');

function load(name: string) {
  const file = resolve(examples, name);
  const loaded = loadSpec(readFileSync(file, 'utf8'), { file });
  if (!loaded.model) throw new Error(`${name} did not load`);
  return loaded.model;
}

describe('toDocument: a model written back as the YAML authoring format', () => {
  // The ferry line (e2e/fixtures) chooses a phone's card fields, which the examples leave to the default.
  it.each(['shop.yaml', 'shop.md', 'empty.md', '../e2e/fixtures/ferry-sailings.yaml'])(
    'loads back to the same model: %s',
    (name) => {
      const model = load(name);
      const text = yamlText(toDocument(model));
      const again = loadSpec(text, { file: `${name}.roundtrip.yaml` });
      expect(again.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
      expect(again.model).toEqual(model);
    },
  );

  it('keeps the reason a point is not shown', () => {
    const model = {
      ...notShownModel('Quiet'),
      roles: { shown: false as const, reason: 'everyone may do everything.' },
    };
    const doc = toDocument(model);
    expect(doc.roles).toBe('Not shown: everyone may do everything.');
    expect(loadSpec(yamlText(doc), { file: 'quiet.yaml' }).model).toEqual(model);
  });
});
