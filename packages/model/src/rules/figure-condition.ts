import { expressionEnvironment } from '../cel';
import type { Entity, Figure, Model } from '../model';
import { columnKindOf, conditionAsData } from './condition-data';
import type { RecordCondition } from './records';

/**
 * The figure's own condition as data for SQL (a `true` when it has none), or undefined when it cannot
 * be one. `check` refuses such a figure, so undefined here means the model was not checked. Apart from
 * figures.ts because it needs the expression engine, which first screens do not load.
 */
export function figureCondition(model: Model, entity: Entity, figure: Figure): RecordCondition | undefined {
  if (figure.where === undefined) return { kind: 'constant', value: true };
  const env = expressionEnvironment(model, { entity: entity.name, variables: ['record'] });
  return conditionAsData(figure.where, env, {}, (field) => columnKindOf(model, entity, field));
}
