import { readFileSync } from 'node:fs';
import { ISSUE_CODES } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { documentedSeverities } from './support/documented-severities';
import { pointsSaid } from './support/points-said';

describe('docs/spec-format.md', () => {
  it('explains every issue code that check can print, and says whether it is an error or a warning', () => {
    const guide = readFileSync(new URL('../docs/spec-format.md', import.meta.url), 'utf8');
    const missing = ISSUE_CODES.filter((code) => !guide.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
    const severities = documentedSeverities();
    expect(ISSUE_CODES.filter((code) => !severities.has(code))).toEqual([]);
    expect(severities.get('missing-point')).toEqual(new Set(['error']));
    expect(severities.get('unoffered-grant')).toEqual(new Set(['warning']));
  });
});

describe('docs/spec-format.md, the calls of an API that is not Ninefold’s', () => {
  // The guide's example, loaded as a stranger would paste it into a specification of their own.
  it('loads as the guide says: a sort parameter per field and a LIKE between % wildcards', async () => {
    const { loadSpec } = await import('@ninefold/model');
    const guide = readFileSync(new URL('../docs/spec-format.md', import.meta.url), 'utf8');
    const after = guide.slice(guide.indexOf('The YAML form also says how an API'));
    const example = /```yaml\n([\s\S]*?)```/.exec(after)?.[1];
    if (example === undefined) throw new Error('the example is gone from the guide');
    const spec = [
      'title: Parts',
      'entities:',
      '  Part: { key: id, fields: { id: { kind: integer }, name: { kind: text }, price: { kind: number } } }',
      'calls:',
      '  operations:',
      example.trimEnd(),
    ].join('\n');
    const loaded = loadSpec(pointsSaid(spec), { file: 'parts.yaml' });
    expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    const call = loaded.model?.calls.shown ? loaded.model.calls.items[0] : undefined;
    expect(call?.sort).toEqual({
      param: 'orderby.{field}',
      fields: ['name', 'price'],
      style: 'param-per-field',
    });
    expect(call?.filters[1]).toEqual({
      field: 'name',
      param: 'where.name.like',
      op: 'contains',
      pattern: '%{value}%',
    });
  });
});
