import {
  type Entity,
  humanize,
  type Model,
  PERSON_AUDIT_ENTITY,
  personAttributes,
  roleLabel,
  signInRoles,
} from '@ninefold/model';
import { addEnglish } from '../i18n/catalogue';
import { changes as changesMessages } from '../i18n/en/changes';

addEnglish('changes', changesMessages);

type PersonWord =
  | 'changes.person'
  | 'changes.email'
  | 'changes.role'
  | 'changes.status'
  | 'changes.invited'
  | 'changes.active'
  | 'changes.deactivated'
  | 'changes.sessionsEnded';

/**
 * What the audit trail keeps of a person, as an entity the change list can show field by field: their
 * email, role (by its label of point 6), status, the attributes the roles' conditions read, and how many
 * times their sessions were ended. Only those who manage people are sent these entries.
 */
export function personEntity(model: Model, t: (key: PersonWord) => string): Entity {
  const roles = signInRoles(model);
  const attributes = [...new Set(roles.flatMap((role) => personAttributes(model, role)))];
  return {
    name: PERSON_AUDIT_ENTITY,
    label: t('changes.person'),
    key: 'id',
    fields: [
      { kind: 'text', name: 'id' },
      { kind: 'text', name: 'email', label: t('changes.email'), format: 'email' },
      {
        kind: 'enum',
        name: 'role',
        label: t('changes.role'),
        values: roles.map((role) => ({ value: role, label: roleLabel(model, role) })),
      },
      {
        kind: 'enum',
        name: 'status',
        label: t('changes.status'),
        values: (['invited', 'active', 'deactivated'] as const).map((value) => ({
          value,
          label: t(`changes.${value}`),
        })),
      },
      ...attributes.map((name) => ({ kind: 'text' as const, name, label: humanize(name) })),
      { kind: 'integer', name: 'sessionsEnded', label: t('changes.sessionsEnded') },
    ],
  };
}
