// `Table:` and `Column:` (docs/database.md): an entity kept in a team's existing table, and a field in a
// column named otherwise, said in Markdown and YAML alike, written back by both writers, and checked.
import { describe, expect, it } from 'vitest';
import { pointsSaid } from '../../../test/support/points-said';
import { loadSpec, type Model, toDocument, toMarkdown } from '../src/index';

const NOT_SHOWN = (n: number, name: string) => `## ${n}. ${name}\n\nNot shown.\n`;
const MARKDOWN = `# Library

${NOT_SHOWN(1, 'Product')}
${NOT_SHOWN(2, 'Screens and routes')}
## 3. Entities and fields

### Member

- Key: id
- Table: lending.members

| Field | Kind | Column |
| --- | --- | --- |
| id | integer | |
| name | text | full_name |
| email | text | |

${NOT_SHOWN(4, 'States and transitions')}
${NOT_SHOWN(5, 'Validation rules')}
${NOT_SHOWN(6, 'Roles and permissions')}
${NOT_SHOWN(7, 'Calls')}
${NOT_SHOWN(8, 'Error catalogue')}
${NOT_SHOWN(9, 'Business constants and limits')}`;

function load(text: string, file: string): Model {
  const result = loadSpec(text, { file });
  expect(result.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  if (!result.model) throw new Error(`${file} did not load`);
  return result.model;
}

function member(model: Model) {
  const entity = model.entities.shown ? model.entities.items[0] : undefined;
  if (!entity) throw new Error('no entity');
  return entity;
}

describe('Table: and Column:', () => {
  it('are read from Markdown as the entity’s table and the field’s column', () => {
    const entity = member(load(MARKDOWN, 'library.md'));
    expect(entity.table).toBe('lending.members');
    expect(entity.fields.map((field) => [field.name, field.column])).toEqual([
      ['id', undefined],
      ['name', 'full_name'],
      ['email', undefined],
    ]);
  });

  it('come back the same through the Markdown and the YAML writers', () => {
    const model = load(MARKDOWN, 'library.md');
    const markdown = toMarkdown(model).text;
    expect(markdown).toContain('- Table: lending.members');
    expect(member(load(markdown, 'back.md'))).toEqual(member(model));
    const yaml = JSON.stringify(toDocument(model));
    expect(member(load(yaml, 'back.json'))).toEqual(member(model));
  });

  it('refuse a table name that is not one, a column without a table, an embedded table, and a shared column', () => {
    const issues = (entities: string) =>
      loadSpec(pointsSaid(`title: Library\nentities:\n${entities}`), { file: 'library.yaml' }).issues.map(
        (issue) => `${issue.path.join('.')}: ${issue.message}`,
      );
    expect(
      issues(
        '  Member:\n    key: id\n    table: "members; drop"\n    fields:\n      id: { kind: integer }\n',
      ),
    ).toEqual([expect.stringMatching(/^entities\.Member\.table: .*table or schema\.table/)]);
    expect(
      issues(
        '  Member:\n    key: id\n    fields:\n      id: { kind: integer }\n      name: { kind: text, column: full_name }\n',
      ),
    ).toEqual([expect.stringMatching(/^entities\.Member\.fields\.name\.column: .*names no table/)]);
    expect(
      issues(
        '  Address:\n    embedded: true\n    table: addresses\n    fields:\n      street: { kind: text }\n',
      ),
    ).toEqual([expect.stringMatching(/^entities\.Address\.table: .*is embedded/)]);
    expect(
      issues(
        '  Member:\n    key: id\n    table: members\n    fields:\n      id: { kind: integer }\n      name: { kind: text, column: full_name }\n      full_name: { kind: text }\n',
      ),
    ).toEqual([
      expect.stringMatching(
        /^entities\.Member\.fields\.full_name\.column: .*both stored in the column "full_name"/,
      ),
    ]);
  });
});
