import {
  type Call,
  type Entity,
  type FieldConstraints,
  type ListScreen,
  type Model,
  notShownModel,
} from '@ninefold/model';

/** A model whose nine points are all not shown. */
export const EMPTY_MODEL: Model = notShownModel();

/** A model with only entities, list screens, calls and field constraints shown. */
export function modelOf(parts: {
  entities: Entity[];
  screens?: ListScreen[];
  calls?: Call[];
  constraints?: FieldConstraints[];
}): Model {
  return {
    ...EMPTY_MODEL,
    entities: { shown: true, items: parts.entities },
    screens: parts.screens ? { shown: true, items: parts.screens } : { shown: false },
    calls: parts.calls ? { shown: true, items: parts.calls } : { shown: false },
    validation: parts.constraints ? { shown: true, fields: parts.constraints, rules: [] } : { shown: false },
  };
}
