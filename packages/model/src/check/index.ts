import type { Issue } from '../issues';
import type { Model } from '../model';
import { checkCalls } from './calls';
import { checkConstants } from './constants';
import { type CheckedIssue, createContext, pointIndex } from './context';
import { checkEntities } from './entities';
import { checkErrors } from './errors';
import { checkProduct } from './product';
import { checkRoles } from './roles';
import { checkScreens } from './screens';
import { checkStates } from './states';
import { checkValidation } from './validation';

export type { CheckedIssue } from './context';

// The semantic checks run on the normalized model, after a loader has checked the document's shape. The
// model may still be broken in any way (an OpenAPI import builds it directly, and tests feed it garbage),
// so every value is read as untrusted: the checks report what they can and never throw. Paths point into
// the authoring document (maps keyed by name), not into the model's arrays, so that the caller can turn
// them into file:line:column.

/**
 * The semantic issues of a model: references that do not resolve (with "did you mean"), references into
 * points that are not shown, duplicate names, invalid or conflicting routes and call paths, state machines
 * that do not match their enum or have unreachable states, CEL expressions that do not check, invalid
 * patterns and constraints, and a catch-all error entry that hides the entries after it. Issues come in
 * point order (1 to 9) with paths into the authoring document and no `source`. Never throws.
 *
 * @example
 * ```ts
 * checkModel(model);
 * // [{ code: 'unknown-reference', severity: 'error', path: ['screens', 'orders', 'entity'],
 * //    message: 'Screen "orders" (point 2) names entity "Ordr", which is not defined in point 3 ...',
 * //    hint: 'did you mean "Order"?' }]
 * ```
 */
export function checkModel(model: Model): Issue[] {
  return checkModelWithOffsets(model).map((checked) => checked.issue);
}

/**
 * {@link checkModel}, keeping for each error inside a CEL expression its offset in the expression, so that
 * the caller can point at the very character with `locateInString(issue.path, offset)`.
 *
 * @example
 * ```ts
 * for (const { issue, offset } of checkModelWithOffsets(model)) {
 *   issue.source = offset === undefined ? doc.locate(issue.path) : doc.locateInString(issue.path, offset);
 * }
 * ```
 */
export function checkModelWithOffsets(model: Model): CheckedIssue[] {
  const context = createContext(model);
  // One step per point, in the points' order.
  const steps = [
    checkProduct,
    checkScreens,
    checkEntities,
    checkStates,
    checkValidation,
    checkRoles,
    checkCalls,
    checkErrors,
    checkConstants,
  ];
  for (const step of steps) step(context);
  // Each step reports under its own point, but keep the promise of point order even if one strays.
  return context.out
    .map((checked, order) => ({ checked, order, point: pointIndex(checked.issue.path[0]) }))
    .sort((a, b) => a.point - b.point || a.order - b.order)
    .map(({ checked }) => checked);
}
