import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSpecYaml } from '../../../bench/generate-spec';
import { loadSpec } from '../src/load';

const example = (name: string) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');

const ALL_NOT_SHOWN = [
  'product: not shown',
  'screens: not shown',
  'entities: not shown',
  'states: not shown',
  'validation: not shown',
  'roles: not shown',
  'calls: not shown',
  'errors: not shown',
  'constants: not shown',
].join('\n');

function load(yaml: string, file = 'spec.yaml') {
  return loadSpec(yaml, { file });
}

describe('loadSpec on YAML', () => {
  it('says a comma inside { } ended a value, and how to keep it, at the key it made', () => {
    const fields = 'entities:\n  Order:\n    fields:\n      status: { kind: enum, values: a, b }';
    const result = load(ALL_NOT_SHOWN.replace('entities: not shown', fields));
    const stray = result.issues.find((issue) => issue.code === 'unknown-key');
    expect(stray?.message).toBe('entities.Order.fields.status: "b" is not a known key here.');
    expect(stray?.hint).toBe(
      'a comma inside { } ends a value, so "b" was read as a key: quote the value that holds the comma (values: "a, b"), or write a list as [a, b]',
    );
    // A key that is simply unknown keeps the known keys as its hint.
    const colour = ALL_NOT_SHOWN.replace(
      'entities: not shown',
      'entities:\n  Order:\n    fields:\n      status: { kind: text, colour: red }',
    );
    expect(load(colour).issues.find((issue) => issue.code === 'unknown-key')?.hint).toMatch(
      /^known keys: kind, label/,
    );
  });

  it('loads the rich example with all nine points shown and no issues', () => {
    const result = load(example('shop.yaml'), 'examples/shop.yaml');
    expect(result.issues).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.coverage).toEqual({
      shown: [
        'product',
        'screens',
        'entities',
        'states',
        'validation',
        'roles',
        'calls',
        'errors',
        'constants',
      ],
      notShown: [],
    });
    const model = result.model;
    if (!model?.entities.shown || !model.states.shown || !model.calls.shown)
      throw new Error('points not shown');
    expect(model.entities.items.map((entity) => entity.name)).toEqual([
      'Order',
      'OrderLine',
      'Address',
      'Customer',
      'Product',
    ]);
    expect(model.states.machines[0]?.transitions.find((t) => t.name === 'cancel')).toEqual({
      name: 'cancel',
      label: 'Cancel order',
      from: ['draft', 'placed'],
      to: 'cancelled',
      roles: ['owner', 'clerk'],
      call: 'cancelOrder',
      confirm: 'Cancel this order? This cannot be undone.',
      set: [],
      updates: [
        'Product[l.product].stock += l.quantity for l in record.lines when record.status == "placed"',
      ],
    });
    // Path parameters come from the path template even when not declared.
    expect(model.calls.items.find((call) => call.name === 'getOrder')?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, type: { kind: 'text' } },
    ]);
  });

  it('accepts a document whose nine points are all not shown: 0 of 9, no issues', () => {
    const result = load(`title: Nameless\n${ALL_NOT_SHOWN}\n`);
    expect(result.issues).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.model?.title).toBe('Nameless');
    expect(result.coverage?.shown).toEqual([]);
    expect(result.model?.states).toEqual({ shown: false });
  });

  it('keeps the explanation written after "not shown"', () => {
    const result = load(ALL_NOT_SHOWN.replace('states: not shown', 'states: "Not shown: no workflows yet."'));
    expect(result.model?.states).toEqual({ shown: false, reason: 'no workflows yet.' });
  });

  it('refuses a missing point with an error that says how to be explicit: a deleted section must not turn its rules off', () => {
    const result = load(ALL_NOT_SHOWN.replace('errors: not shown\n', ''));
    expect(result.ok).toBe(false);
    expect(result.model?.errors).toEqual({ shown: false });
    expect(result.issues).toMatchObject([{ code: 'missing-point', severity: 'error' }]);
    expect(result.issues[0]?.message).toContain('Point 8');
    expect(result.issues[0]?.hint).toContain('errors: not shown');
  });

  it('names an unknown key with its position and the key that was probably meant', () => {
    const result = load(
      `${ALL_NOT_SHOWN.replace('screens: not shown', 'screens:\n  home:\n    kind: list\n    rout: /\n    entity: Order')}`,
    );
    const issue = result.issues.find((i) => i.code === 'unknown-key');
    expect(issue).toMatchObject({
      severity: 'error',
      path: ['screens', 'home', 'rout'],
      hint: 'did you mean "route"?',
    });
    expect(issue?.source).toEqual({ file: 'spec.yaml', line: 5, column: 5 });
    expect(result.ok).toBe(false);
  });

  it('reports a misspelt top-level point with a suggestion', () => {
    const result = load(`${ALL_NOT_SHOWN}\nconstans: not shown\n`);
    expect(result.issues.find((i) => i.code === 'unknown-key')).toMatchObject({
      path: ['constans'],
      hint: 'did you mean "constants"?',
      source: { line: 10, column: 1 },
    });
  });

  it('says which kind was meant for an unknown field kind', () => {
    const yaml = ALL_NOT_SHOWN.replace(
      'entities: not shown',
      'entities:\n  Order:\n    fields:\n      total: { kind: mony }',
    );
    const issue = load(yaml).issues.find((i) => i.path.at(-1) === 'kind');
    expect(issue).toMatchObject({ code: 'invalid-value', hint: 'did you mean "money"?' });
    expect(issue?.path).toEqual(['entities', 'Order', 'fields', 'total', 'kind']);
    expect(issue?.source).toEqual({ file: 'spec.yaml', line: 6, column: 22 });
  });

  it('reports a wrong type with what was expected and what was found', () => {
    const yaml = ALL_NOT_SHOWN.replace('constants: not shown', 'constants:\n  PAGE_SIZE: { value: [1] }');
    const issue = load(yaml).issues.find((i) => i.code === 'invalid-type');
    expect(issue?.path).toEqual(['constants', 'PAGE_SIZE', 'value']);
    expect(issue?.message).toContain('found a list');
    expect(issue?.source).toEqual({ file: 'spec.yaml', line: 10, column: 23 });
  });

  it('reports a required key that is missing', () => {
    const yaml = ALL_NOT_SHOWN.replace(
      'screens: not shown',
      'screens:\n  orders:\n    kind: list\n    entity: Order',
    );
    const issue = load(yaml).issues.find((i) => i.code === 'missing-key');
    expect(issue?.path).toEqual(['screens', 'orders', 'route']);
    expect(issue?.source?.line).toBe(3);
  });

  it('locates a semantic problem: a screen naming an entity that does not exist', () => {
    const yaml = example('shop.yaml').replace(
      '    entity: Customer\n    columns',
      '    entity: Custmer\n    columns',
    );
    const result = load(yaml, 'shop.yaml');
    const issue = result.issues.find((i) => i.code === 'unknown-reference');
    expect(issue).toMatchObject({ severity: 'error', path: ['screens', 'customers', 'entity'] });
    expect(issue?.hint).toContain('Customer');
    const line = yaml.split('\n').findIndex((text) => text.includes('entity: Custmer')) + 1;
    expect(issue?.source).toEqual({ file: 'shop.yaml', line, column: 13 });
    // The model is still there for tools that want to show what they can.
    expect(result.model).toBeDefined();
    expect(result.ok).toBe(false);
  });

  it('points inside a CEL expression at the unknown field', () => {
    const yaml = example('shop.yaml').replace(
      'guard: record.lines.size() > 0',
      'guard: record.lnes.size() > 0',
    );
    const issue = load(yaml, 'shop.yaml').issues.find((i) => i.code === 'invalid-expression');
    expect(issue?.path).toEqual(['states', 'Order.status', 'transitions', 'place', 'guard']);
    const line = yaml.split('\n').findIndex((text) => text.includes('record.lnes')) + 1;
    expect(issue?.source?.line).toBe(line);
    expect(issue?.source?.column).toBeGreaterThan(15);
  });

  it('detects JSON by extension and reports its positions', () => {
    const json = JSON.stringify({ title: 'A', product: 'not shown', screens: 42 }, null, 2);
    const result = loadSpec(json, { file: 'a.json' });
    expect(result.format).toBe('json');
    expect(result.issues.find((i) => i.severity === 'error')).toMatchObject({
      path: ['screens'],
      source: { file: 'a.json', line: 4, column: 14 },
    });
  });
});

describe('loadSpec on input that is not a specification', () => {
  it.each([
    ['an empty file', '', 'empty-file'],
    ['only white space', ' \n\t\n', 'empty-file'],
    ['a binary file', 'PK\u0003\u0004\u0000\u0000binary', 'binary-file'],
    ['undecodable bytes', '\uFFFD'.repeat(50), 'binary-file'],
  ])('%s gets one clear issue', (_name, text, code) => {
    const result = load(text);
    expect(result.ok).toBe(false);
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ code, severity: 'error', source: { line: 1, column: 1 } });
  });

  it('a top-level list is a type error, not a crash', () => {
    const result = load('- a\n- b\n');
    expect(result.ok).toBe(false);
    expect(result.issues[0]).toMatchObject({ code: 'invalid-type', path: [] });
  });

  it('a truncated file reports where it stops making sense', () => {
    const full = example('shop.yaml');
    const result = load(full.slice(0, Math.floor(full.length / 2)));
    expect(result.ok).toBe(false);
    expect(result.issues.length).toBeGreaterThan(0);
    for (const issue of result.issues) expect(issue.source?.line).toBeGreaterThan(0);
  });

  it('loads a 10,000-line specification', () => {
    const text = generateSpecYaml(300, 25);
    expect(text.split('\n').length).toBeGreaterThan(10_000);
    const result = load(text, 'big.yaml');
    expect(result.issues).toEqual([]);
    expect(result.model?.entities.shown && result.model.entities.items.length).toBe(300);
  });

  it('a 10,000-line specification with one mistake near the end names its line', () => {
    const text = generateSpecYaml(300, 25).replace('Entity299.field0: {', 'Entity299.fieldZ: {');
    const issue = load(text, 'big.yaml').issues.find((i) => i.code === 'unknown-reference');
    const line = text.split('\n').findIndex((row) => row.includes('Entity299.fieldZ')) + 1;
    expect(issue?.source?.line).toBe(line);
  });

  it('deeply nested lists give issues, not a stack overflow', () => {
    const deep = `title: x\nproduct: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const result = load(deep);
    expect(result.ok).toBe(false);
    expect(result.issues.length).toBeGreaterThan(0);
  });
});

describe('one run shows every mistake', () => {
  it('reports a Markdown cell the reader cannot read together with the semantic errors elsewhere', () => {
    const text = [
      '# Broken',
      '## 2. Screens',
      '| Screen | Kind | Route | Entity |',
      '| --- | --- | --- | --- |',
      '| orders | list | /orders | Ordr |',
      '## 3. Entities',
      '### Order',
      '| Field | Kind |',
      '| --- | --- |',
      '| number | text |',
      '| total | mony |',
    ].join('\n');
    const result = loadSpec(text, { file: 'broken.md' });
    const errors = result.issues.filter((issue) => issue.severity === 'error');
    expect(errors.map((issue) => [issue.code, issue.source?.line])).toEqual([
      // Points 1 and 4 to 9 are neither written nor said to be not shown.
      ...Array.from({ length: 7 }, () => ['missing-point', 1]),
      ['unknown-reference', 5],
      ['unreadable-cell', 11],
    ]);
    // The follow-on "field has no kind" from the schema is not reported a second time.
    expect(result.issues.filter((issue) => issue.code === 'missing-key')).toEqual([]);
    expect(result.ok).toBe(false);
  });
});

describe('the two authoring formats', () => {
  it('load the Markdown and YAML forms of the rich example to identical models', () => {
    const markdown = loadSpec(example('shop.md'), { file: 'examples/shop.md' });
    const yaml = loadSpec(example('shop.yaml'), { file: 'examples/shop.yaml' });
    expect(markdown.issues).toEqual([]);
    expect(yaml.issues).toEqual([]);
    expect(markdown.model).toEqual(yaml.model);
    expect(markdown.format).toBe('markdown');
  });

  it('load the all-not-shown Markdown example to the honest shell: a title and nine points not shown', () => {
    const result = loadSpec(example('empty.md'), { file: 'examples/empty.md' });
    expect(result.issues).toEqual([]);
    expect(result.model).toEqual({
      title: 'Nameless',
      product: { shown: false },
      screens: { shown: false },
      entities: { shown: false },
      states: { shown: false },
      validation: { shown: false },
      roles: { shown: false },
      calls: { shown: false },
      errors: { shown: false },
      constants: { shown: false },
    });
  });
});

describe('names', () => {
  // Regression: a name "__proto__" used to vanish silently in all three formats (a plain object turns
  // the assignment into a prototype change), losing the item without a word.
  it.each([
    ['YAML', 'title: T\nconstants:\n  __proto__: 5\n  B: 2\n', 'a.yaml', 3],
    ['JSON', '{\n"title": "T",\n"constants": {\n"__proto__": 5, "B": 2}}', 'a.json', 4],
    ['Markdown', '# T\n\n## 9. C\n\n| Name | Value |\n|-|-|\n| `__proto__` | 5 |\n| B | 2 |\n', 'a.md', 7],
  ])(
    'refuses the name __proto__ in %s with a position, instead of losing the item',
    (_format, text, file, line) => {
      const result = loadSpec(text, { file });
      expect(result.ok).toBe(false);
      const issue = result.issues.find((i) => i.code === 'invalid-name');
      expect(issue?.path).toEqual(['constants', '__proto__']);
      expect(issue?.source?.line).toBe(line);
    },
  );

  it('refuses an entity or field name with a dash, which CEL would read as a minus, at the name', () => {
    const result = loadSpec('title: T\nentities:\n  Order-line:\n    fields: {}\n', { file: 'dash.yaml' });
    expect(result.issues).toMatchObject([
      { code: 'invalid-name', path: ['entities', 'Order-line'], source: { line: 3, column: 3 } },
    ]);
  });
});
