import { exhaustiveSwitchError } from '../exhaustive';
import type { Entity, Figure, Model } from '../model';
import { type AccessVerdict, checkGrant, fieldAccess, type Principal } from './grants';
import type { RecordCondition } from './records';

// Who may be told a dashboard figure (point 2), apart from how figures are computed: a dashboard's first
// screen asks this of every figure, and needs nothing else of them.

/**
 * Whether a role may be told a figure: it must read the entity, and every field the figure reads (the
 * one it adds up, the one it groups by, and with `condition` (see `figureCondition`) those of its
 * condition). A figure over fields the role may not see would tell their values in sum; the prototype
 * API refuses it, and the client does not ask. Without `condition`, no expression engine is needed,
 * which a first screen cannot afford.
 */
export function checkFigure(
  model: Model,
  principal: Principal,
  entity: Entity,
  figure: Figure,
  condition?: RecordCondition,
): AccessVerdict {
  const read = checkGrant(model, principal, entity.name, 'read');
  if (!read.allowed) return read;
  const { hidden } = fieldAccess(model, principal, entity.name);
  const used = [figure.field, figure.by, ...(condition ? conditionFields(condition) : [])];
  const refused = used.find((field) => field !== undefined && hidden.has(field));
  return refused === undefined
    ? { allowed: true }
    : {
        allowed: false,
        reason: 'role',
        message: `Your role may not read ${refused}, which this figure uses.`,
      };
}

/** The fields a condition reads: a role must be able to read each of them to be told the figure. */
export function conditionFields(condition: RecordCondition): string[] {
  switch (condition.kind) {
    case 'all':
    case 'any':
      return condition.of.flatMap(conditionFields);
    case 'not':
      return conditionFields(condition.of);
    case 'compare':
    case 'in':
    case 'has':
      return [condition.field];
    case 'constant':
      return [];
    default:
      return exhaustiveSwitchError(condition);
  }
}
