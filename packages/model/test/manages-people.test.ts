// Managing people (issue 47), as docs/spec-format.md words it: `Manages people: yes` in the roles table
// (YAML `managesPeople: true`). Only that role lists, invites, changes and signs out people; the only
// attributes a person may be given are those their role's conditions read as `user.<name>`.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  loadSpec,
  type Model,
  managesPeople,
  personAttributes,
  planAccountChange,
  planInvitation,
  prototypeApi,
  toDocument,
  toMarkdown,
} from '../src';

const SPEC = `# Tide pool survey

## 1. Product
Volunteers log what they find in the tide pools; coordinators keep the team.

## 2. Screens
Not shown.

## 3. Entities
### Sighting

| Field | Kind |
| --- | --- |
| species | text |
| pool | text |

## 4. States
Not shown.

## 5. Validation
Not shown.

## 6. Roles and permissions

### Sign-in

- Kind: password

### Roles

| Role | Label | Manages people |
| --- | --- | --- |
| coordinator | Coordinator | yes |
| volunteer | Volunteer | |

### Permissions

| Role | Entity | Actions | Where |
| --- | --- | --- | --- |
| coordinator | Sighting | all | |
| volunteer | Sighting | read, create | \`record.pool == user.pool\` |

## 7. Calls
Not shown.

## 8. Errors
Not shown.

## 9. Constants
Not shown.
`;

function load(
  text: string,
  file = 'tide.md',
): { model: Model; issues: ReturnType<typeof loadSpec>['issues'] } {
  const loaded = loadSpec(text, { file });
  if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return { model: loaded.model, issues: loaded.issues };
}

describe('a role that manages people', () => {
  const { model, issues } = load(SPEC);
  const coordinator = { role: 'coordinator', user: { id: 'c1' } };
  const volunteer = { role: 'volunteer', user: { id: 'v1', pool: 'north' } };

  it('is read from Markdown and YAML alike, and written back by both writers', () => {
    expect(issues).toEqual([]);
    expect(model.roles.shown && model.roles.roles.find((role) => role.name === 'coordinator')).toMatchObject({
      managesPeople: true,
    });
    const markdown = toMarkdown(model);
    expect(markdown.lost).toEqual([]);
    expect(markdown.text).toContain('Manages people');
    expect(load(markdown.text).model.roles).toEqual(model.roles);
    expect(load(stringify(toDocument(model)), 'again.yaml').model.roles).toEqual(model.roles);
  });

  it('is the only one that manages people, and the API serves them only where some role does', () => {
    expect(managesPeople(model, coordinator)).toBe(true);
    expect(managesPeople(model, volunteer)).toBe(false);
    expect(managesPeople(model, {})).toBe(false);
    expect(prototypeApi(model).accounts).toBe('/_accounts');
    const none = load(
      SPEC.replace('| coordinator | Coordinator | yes |', '| coordinator | Coordinator | |'),
    ).model;
    expect(prototypeApi(none).accounts).toBeUndefined();
    // Passwords are still the API's own: anyone may reset theirs.
    expect(prototypeApi(none).auth?.passwordReset).toBe('/auth/password-reset');
  });

  it("gives a person only the attributes their role's conditions read", () => {
    expect(personAttributes(model, 'volunteer')).toEqual(['pool']);
    expect(personAttributes(model, 'coordinator')).toEqual([]);
    const invited = planInvitation(model, coordinator, {
      email: ' Rae@Tide.test ',
      role: 'volunteer',
      attributes: { pool: 'south' },
    });
    expect(invited).toEqual({
      ok: true,
      invitation: { email: 'rae@tide.test', role: 'volunteer', attributes: { pool: 'south' } },
    });
    const wrong = planInvitation(model, coordinator, {
      email: 'rae',
      role: 'admin',
      attributes: { pool: 'south', shoe: 9 },
      isAdmin: true,
    });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      expect(wrong.refusal.status).toBe(422);
      expect(wrong.refusal.errors.map((error) => error.pointer).sort()).toEqual([
        '/attributes/pool',
        '/attributes/shoe',
        '/email',
        '/isAdmin',
        '/role',
      ]);
    }
  });

  it('refuses everyone else, and anyone their own demotion or deactivation', () => {
    expect(planInvitation(model, volunteer, { email: 'a@b.test', role: 'volunteer' })).toMatchObject({
      ok: false,
      refusal: { status: 403, code: 'FORBIDDEN' },
    });
    expect(planInvitation(model, {}, { email: 'a@b.test', role: 'volunteer' })).toMatchObject({
      ok: false,
      refusal: { status: 401 },
    });
    const self = {
      id: 'c1',
      email: 'c@tide.test',
      role: 'coordinator',
      status: 'active' as const,
      attributes: {},
    };
    for (const body of [{ active: false }, { role: 'volunteer' }]) {
      expect(planAccountChange(model, coordinator, self, body)).toMatchObject({
        ok: false,
        refusal: { status: 409, code: 'OWN_ACCOUNT' },
      });
    }
    const other = { ...self, id: 'v1', role: 'volunteer', attributes: { pool: 'north' } };
    expect(planAccountChange(model, coordinator, other, { role: 'coordinator' })).toEqual({
      ok: true,
      // A new role keeps only what its conditions read; a new role ends the sessions of the old.
      change: { role: 'coordinator', attributes: {} },
      endsSessions: true,
    });
    expect(planAccountChange(model, coordinator, other, { attributes: { pool: 'east' } })).toEqual({
      ok: true,
      change: { attributes: { pool: 'east' } },
      endsSessions: false,
    });
  });

  it('is checked: never a role for people who have not signed in, and only where passwords are kept', () => {
    const visitor = load(
      SPEC.replace('| Role | Label | Manages people |', '| Role | Label | Manages people | Signed out |')
        .replace('| --- | --- | --- |\n| coordinator', '| --- | --- | --- | --- |\n| coordinator')
        .replace('| coordinator | Coordinator | yes |', '| coordinator | Coordinator | yes | yes |')
        .replace('| volunteer | Volunteer | |', '| volunteer | Volunteer | | |'),
    );
    expect(visitor.issues.map((issue) => [issue.severity, issue.path.join('.')])).toContainEqual([
      'error',
      'roles.roles.coordinator.managesPeople',
    ]);
    const token = load(SPEC.replace('- Kind: password', '- Kind: token'));
    expect(token.issues.map((issue) => [issue.severity, issue.path.join('.')])).toEqual([
      ['warning', 'roles.roles.coordinator.managesPeople'],
    ]);
    expect(prototypeApi(token.model).accounts).toBeUndefined();
  });
});
