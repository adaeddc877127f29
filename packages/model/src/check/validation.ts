import { didYouMean } from '../authoring/suggest';
import { type ExpressionScope, expressionEnvironment } from '../cel';
import { countNeverPasses } from '../cel/ast';
import type { PathSegment } from '../issues';
import type { Constant, Entity, FieldKind } from '../model';
import {
  type Context,
  checkCel,
  describeKind,
  isRecord,
  isText,
  kindOf,
  list,
  refer,
  referField,
  referFieldPath,
  report,
  shown,
  text,
} from './context';
import { constantNumber } from './errors';

// The checks of point 5 (validation rules): constraints, rules, codes and counts that cannot pass. check/index.ts runs them in point order over one shared Context.

export const TEXT_KINDS: readonly FieldKind[] = ['text', 'markdown'];
export const UNORDERED_KINDS: readonly FieldKind[] = ['boolean', 'enum', 'reference', 'object'];

export function checkValidation(context: Context): void {
  const validation = shown(context.model.validation);
  if (!validation) return;
  const seen = new Set<string>();
  for (const constraints of list(validation.fields)) {
    if (!isRecord(constraints)) continue;
    const entityName = text(constraints.entity);
    const segments = list(constraints.field);
    if (entityName === undefined || segments.length === 0 || !segments.every(isText)) continue;
    const key = [entityName, ...segments].join('.');
    const base: PathSegment[] = ['validation', 'fields', key];
    const owner = `the constraints of "${key}" (point 5)`;
    if (seen.has(key)) {
      report(context, 'duplicate-name', base, `${owner} are given twice. Merge them into one entry.`);
      continue;
    }
    seen.add(key);
    const entity = refer<Entity>(context, 'entity', entityName, base, owner);
    const field = referFieldPath(context, entity, segments, base, owner);
    const kind = field === undefined ? undefined : kindOf(field);
    const together = list(constraints.uniqueWith);
    if (together.length > 0 && segments.length > 1) {
      report(
        context,
        'invalid-value',
        [...base, 'uniqueWith'],
        `${owner} are on a field inside an object; "unique with" holds only for fields of the record itself.`,
      );
    }
    for (const name of together) referField(context, entity, name, [...base, 'uniqueWith'], owner);

    const pattern = constraints.pattern;
    if (typeof pattern === 'string') {
      const problem = patternProblem(pattern);
      if (problem !== undefined) {
        report(
          context,
          'invalid-pattern',
          [...base, 'pattern'],
          `The pattern of "${key}" (point 5) is not a valid regular expression: ${problem}. ` +
            'Write an ECMAScript regular expression (it is used with the u flag).',
        );
      } else if (field !== undefined && kind !== undefined && !TEXT_KINDS.includes(kind)) {
        report(
          context,
          'kind-mismatch',
          [...base, 'pattern'],
          `The pattern of "${key}" (point 5) applies to text, but "${key}" is a ${describeKind(field)} field. ` +
            'Remove the pattern or use min and max.',
          { severity: 'warning' },
        );
      }
    }

    const want = amountWant(kind);
    for (const bound of ['min', 'max'] as const) {
      const amount = constraints[bound];
      if (amount === undefined) continue;
      const path = [...base, bound];
      if (field !== undefined && kind !== undefined && UNORDERED_KINDS.includes(kind)) {
        report(
          context,
          'kind-mismatch',
          path,
          `The ${bound} of "${key}" (point 5) has no meaning for a ${describeKind(field)} field. Remove it.`,
          { severity: 'warning' },
        );
        continue;
      }
      checkAmount(context, amount, path, `the ${bound} of "${key}" (point 5)`, want);
    }
    const min = numericAmount(context, constraints.min);
    const max = numericAmount(context, constraints.max);
    if (min !== undefined && max !== undefined && min > max) {
      report(
        context,
        'invalid-value',
        [...base, 'min'],
        `The min of "${key}" (point 5) is ${min}, more than its max ${max}, so no value can pass. ` +
          'Swap or correct them.',
      );
    }
  }

  const ruleNames = new Set<string>();
  list(validation.rules).forEach((rule, index) => {
    if (!isRecord(rule)) return;
    const base: PathSegment[] = ['validation', 'rules', index];
    const name = text(rule.name);
    const owner = name === undefined ? `rule ${index + 1} of point 5` : `rule "${name}" (point 5)`;
    if (name !== undefined) {
      if (ruleNames.has(name)) {
        report(
          context,
          'duplicate-name',
          [...base, 'name'],
          `${owner} is named twice in point 5. Rename one of the rules.`,
        );
      }
      ruleNames.add(name);
    }
    const entityName = text(rule.entity);
    const entity = refer<Entity>(context, 'entity', rule.entity, [...base, 'entity'], owner);
    // `lines.quantity`: a rule over every line, whose refusal lands on each line's quantity.
    if (typeof rule.field === 'string')
      referFieldPath(context, entity, rule.field.split('.'), [...base, 'field'], owner);
    checkCode(context, rule.code, [...base, 'code'], owner);
    if (entityName !== undefined)
      checkRuleTransitions(context, entityName, rule.transitions, [...base, 'on'], owner);
    const scope: ExpressionScope = { variables: ['record', 'old', 'user', 'now', 'today'] };
    if (entityName !== undefined) scope.entity = entityName;
    checkCel(context, rule.check, [...base, 'check'], `the check of ${owner}`, scope, true);
    if (typeof rule.check === 'string') {
      const never = countNeverPasses(expressionEnvironment(context.model, scope).cel, rule.check, (name) =>
        constantNumber(context.model, name),
      );
      if (never !== undefined) {
        report(context, 'invalid-value', [...base, 'check'], `${owner} refuses every record: ${never}.`, {
          severity: 'warning',
        });
      }
    }
  });
}

/** A problem code of a rule or a guard: matched against the catalogue's codes and sent as the problem's code, so one spelling. */
export function checkCode(context: Context, value: unknown, path: PathSegment[], owner: string): void {
  const code = text(value);
  if (code === undefined || RULE_CODE.test(code)) return;
  report(
    context,
    'invalid-value',
    path,
    `The code "${code}" of ${owner} is not written in SCREAMING_SNAKE like the codes of the error ` +
      `catalogue. Write it as ${screamingSnake(code) || 'CREDIT_LIMIT'}.`,
  );
}

/** The transitions a rule applies on (`On: submit`) are transitions of its entity's machine. */
function checkRuleTransitions(
  context: Context,
  entity: string,
  transitions: unknown,
  path: PathSegment[],
  owner: string,
): void {
  const names = list(transitions).filter((name): name is string => typeof name === 'string');
  if (names.length === 0) return;
  const states = shown(context.model.states);
  const machine = list(states?.machines).find(
    (candidate) => isRecord(candidate) && candidate.entity === entity,
  );
  const known = isRecord(machine)
    ? list(machine.transitions).flatMap((transition) =>
        isRecord(transition) && typeof transition.name === 'string' ? [transition.name] : [],
      )
    : [];
  for (const name of names) {
    if (known.includes(name)) continue;
    report(
      context,
      'unknown-reference',
      path,
      `${owner} applies on "${name}", which is neither create, update nor a transition of "${entity}" in point 4. ` +
        (known.length > 0 ? `Its transitions are: ${known.join(', ')}.` : `"${entity}" has no transitions.`),
      { hint: didYouMean(name, ['create', 'update', ...known]) },
    );
  }
}

/** `CREDIT_LIMIT`, `OUT_OF_STOCK`, `E42`: upper-case words joined by single underscores. */
export const RULE_CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** `creditLimit` -> `CREDIT_LIMIT`, `out-of-stock` -> `OUT_OF_STOCK`: the spelling the check suggests. */
export function screamingSnake(code: string): string {
  return code
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^[^A-Za-z]+|_+$/g, '')
    .toUpperCase();
}

export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^Invalid regular expression: /, '');
  }
}

export type AmountWant = 'number' | 'date' | 'any';

export function amountWant(kind: FieldKind | undefined): AmountWant {
  if (kind === undefined) return 'any';
  return kind === 'date' || kind === 'datetime' ? 'date' : 'number';
}

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function isDateString(value: unknown): boolean {
  return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/** An Amount: a constant must exist (point 9 shown) and hold a number, or a date for date fields. */
export function checkAmount(
  context: Context,
  amount: unknown,
  path: PathSegment[],
  owner: string,
  want: AmountWant,
) {
  if (!isRecord(amount)) return;
  if (amount.kind === 'date' && want === 'number') {
    report(
      context,
      'kind-mismatch',
      path,
      `${owner} is the date ${String(amount.value)}, but a number is expected here. Give a number.`,
    );
    return;
  }
  if (amount.kind !== 'constant') return;
  const constant = refer<Constant>(context, 'constant', amount.name, path, owner);
  if (constant === undefined) return;
  const value = constant.value;
  const fits =
    want === 'number'
      ? typeof value === 'number'
      : want === 'date'
        ? isDateString(value)
        : typeof value === 'number' || isDateString(value);
  if (fits) return;
  const expected = want === 'number' ? 'a number' : want === 'date' ? 'a date' : 'a number or a date';
  report(
    context,
    'kind-mismatch',
    path,
    `${owner} uses constant "${constant.name}", whose value ${JSON.stringify(value) ?? String(value)} is not ` +
      `${expected}. Give the constant ${expected} in point 9, or use another one.`,
  );
}

export function numericAmount(context: Context, amount: unknown): number | undefined {
  if (!isRecord(amount)) return undefined;
  if (amount.kind === 'number') return typeof amount.value === 'number' ? amount.value : undefined;
  if (amount.kind === 'constant' && typeof amount.name === 'string') {
    const value = context.constants?.get(amount.name)?.value;
    return typeof value === 'number' ? value : undefined;
  }
  return undefined;
}
