import type { JsonValue, Model } from '../model';

// Messages of rules, guards and the catalogue may name values: `{MAX_OPEN_TICKETS}` (a constant of point
// 9), `{record.customer}` or `{user.email}`. The client and the API fill them in the same way, here.

export interface MessageValues {
  record?: Record<string, JsonValue> | undefined;
  user?: Record<string, unknown> | undefined;
  /** Names the check bound (`cel.bind(open, count(…), …)`), with their values: `{open}`. */
  bound?: Record<string, unknown> | undefined;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}/g;

/**
 * A message with its placeholders filled in. A placeholder whose value is unknown (a field left empty,
 * a name that is no constant) stays as it was written, so a person still reads what was meant.
 *
 * @example
 * ```ts
 * fillMessage('At most {MAX_OPEN_TICKETS} open tickets for {record.customer}.', model, { record: { customer: 7 } });
 * // 'At most 3 open tickets for 7.'
 * ```
 */
export function fillMessage(message: string, model: Model, values: MessageValues = {}): string {
  if (typeof message !== 'string' || !message.includes('{')) return message;
  return message.replace(PLACEHOLDER, (whole, name: string) => {
    const [head, ...path] = name.split('.');
    let value: unknown;
    if (head === 'record' || head === 'user') value = at(values[head], path);
    else if (path.length === 0 && values.bound && Object.hasOwn(values.bound, name))
      value = readable(values.bound[name]);
    else if (path.length === 0) value = constantValue(model, name);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : whole;
  });
}

/**
 * The hints of point 5's rules for a field of a form, constants filled in: the rules of `root` whose
 * field is `path` (`lines.quantity` for every line's quantity).
 *
 * @example
 * ```ts
 * ruleHints(model, 'Ticket', ['customer']); // ['At most 3 open tickets per customer.']
 * ```
 */
export function ruleHints(model: Model, root: string, path: readonly string[]): string[] {
  if (!model?.validation?.shown) return [];
  const key = path.join('.');
  return model.validation.rules
    .filter((rule) => typeof rule.hint === 'string' && rule.field !== undefined)
    .filter((rule) => (rule.entity === root && rule.field === key) || itemFieldOf(model, rule, root) === key)
    .map((rule) => fillMessage(rule.hint as string, model));
}

/** For a rule on `lines.quantity` of Order, asked about an OrderLine input: `quantity`. */
function itemFieldOf(
  model: Model,
  rule: { entity: string; field?: string },
  root: string,
): string | undefined {
  const [list, ...below] = (rule.field ?? '').split('.');
  if (below.length === 0 || !model.entities.shown) return undefined;
  const owner = model.entities.items.find((entity) => entity.name === rule.entity);
  const field = owner?.fields.find((candidate) => candidate.name === list);
  const item = field?.kind === 'list' ? field.of : field;
  return item?.kind === 'object' && item.entity === root ? below.join('.') : undefined;
}

/** A computed value as a person reads it: 4500.5 stays, 0.1 + 0.2 does not show its float noise. */
function readable(value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(2)) : value;
}

function at(root: unknown, path: string[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return path.length === 0 ? undefined : value;
}

function constantValue(model: Model, name: string): unknown {
  if (!model?.constants?.shown) return undefined;
  return model.constants.items.find((item) => item.name === name)?.value;
}
