// One YAML mistake, one error: the parser reports every token after a broken structure as unexpected,
// and those are folded into the first, which is the one to correct.

import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load';

const spec = (line: string) => `title: Allotment Lane
product: not shown
screens:
  home:
    kind: dashboard
    route: /
    figures:
${line}
states: not shown
validation: not shown
roles: not shown
calls: not shown
errors: not shown
constants: not shown
entities:
  Harvest:
    fields:
      crop: { kind: enum, values: [tomato, bean] }
`;

describe('a YAML syntax mistake', () => {
  it('is one error at its place, saying how many more follow from it', () => {
    // Brackets and quotes inside a flow map, unquoted: the rest of the document no longer parses.
    const loaded = loadSpec(
      spec('      beans: { entity: Harvest, measure: count, where: record.crop in ["bean"] }'),
      {
        file: 'garden.yaml',
      },
    );
    const syntax = loaded.issues.filter((issue) => issue.code === 'syntax');
    expect(syntax).toHaveLength(1);
    expect(syntax[0]?.source?.line).toBe(8);
    expect(syntax[0]?.hint).toMatch(/^\d+ more syntax errors?, up to line \d+, follow from this one/);
  });

  it('keeps a key given twice as a mistake of its own', () => {
    const loaded = loadSpec(
      spec(
        '      beans: { entity: Harvest, measure: count }\n      beans: { entity: Harvest, measure: count }',
      ),
      {
        file: 'garden.yaml',
      },
    );
    expect(loaded.issues.filter((issue) => issue.code === 'duplicate-key')).toHaveLength(1);
    expect(loaded.issues.filter((issue) => issue.code === 'syntax')).toEqual([]);
  });
});
