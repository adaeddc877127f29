import type { Model } from '@ninefold/model';

/** Every field writable by every role that may write its entity: no read-only fields, no grant limits. */
export function everyFieldWritable(model: Model): Model {
  const copy = structuredClone(model);
  if (copy.entities.shown)
    for (const entity of copy.entities.items)
      entity.fields = entity.fields.map((field) => {
        if (field.derived !== undefined || field.name === (entity.key ?? 'id')) return field;
        const { readOnly: _readOnly, setOnCreate: _setOnCreate, ...writable } = field;
        return writable as typeof field;
      });
  if (copy.roles.shown)
    copy.roles.grants = copy.roles.grants.map((grant) => ({ ...grant, hidden: [], readOnly: [] }));
  return copy;
}
