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

describe('docs/spec-format.md, point 6’s example with its visitor role', () => {
  // The guide's two forms of point 6, pasted under the same entities as a stranger would: they must load
  // with no error and say the same, visitors included.
  const guide = readFileSync(new URL('../docs/spec-format.md', import.meta.url), 'utf8');
  const section = guide.slice(
    guide.indexOf('## 6. Roles and permissions'),
    guide.indexOf('## 7. The calls it makes'),
  );
  const markdownExample = /```markdown\n([\s\S]*?)```/.exec(section)?.[1];
  const yamlExample = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  const ENTITIES = [
    'entities:',
    '  Customer: { key: id, fields: { id: { kind: integer }, name: { kind: text } } }',
    '  Product: { key: id, fields: { id: { kind: integer }, name: { kind: text }, active: { kind: boolean } } }',
    '  Order: { key: id, fields: { id: { kind: integer }, customer: { kind: integer }, lines: { kind: text } } }',
  ].join('\n');

  it('loads in both forms, which say the same', async () => {
    const { loadSpec, visitorRole } = await import('@ninefold/model');
    if (markdownExample === undefined || yamlExample === undefined) throw new Error('an example is gone');
    const fromYaml = loadSpec(pointsSaid(`title: Corner shop\n${ENTITIES}\n${yamlExample}`), {
      file: 'shop.yaml',
    });
    expect(fromYaml.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    const entities = fromYaml.model
      ? (await import('@ninefold/model')).toMarkdown({
          ...fromYaml.model,
          roles: { shown: false, reason: 'for the entities alone' },
        }).text
      : '';
    const withRoles = entities.replace(
      /## 6\. Roles and permissions[\s\S]*?(?=## 7\.)/,
      `${markdownExample}\n`,
    );
    const fromMarkdown = loadSpec(withRoles, { file: 'shop.md' });
    expect(fromMarkdown.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(fromMarkdown.model?.roles).toEqual(fromYaml.model?.roles);
    expect(fromYaml.model && visitorRole(fromYaml.model)?.name).toBe('visitor');
  });
});
