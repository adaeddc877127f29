import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import type { Comparison } from '../rules/records';

// Reading the shape of a parsed expression: which variables a part names, which list a check walks item
// by item, what a check binds at its top, and a count compared with a number it can never meet.

export const COMPARISONS = new Set<string>(['==', '!=', '<', '<=', '>', '>=']);
export const REVERSED: Record<Comparison, Comparison> = {
  '==': '==',
  '!=': '!=',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

/** `x.field` -> `field`; anything else -> undefined. */
export function fieldOf(node: ASTNode, variable: string): string | undefined {
  if (node.op !== '.') return undefined;
  const [target, name] = node.args as [ASTNode, string];
  return target.op === 'id' && target.args === variable ? name : undefined;
}

/**
 * The fields of `variable` an expression reads (`record.status`, `record.lines.all(…)`), or undefined
 * when it uses the variable whole (`size(record)`), so that any field could matter.
 */
export function fieldsRead(node: ASTNode, variable: string): Set<string> | undefined {
  const fields = new Set<string>();
  const walk = (current: ASTNode): boolean => {
    const field = fieldOf(current, variable);
    if (field !== undefined) {
      fields.add(field);
      return true;
    }
    if (current.op === 'id' && current.args === variable) return false;
    return children(current).every(walk);
  };
  return walk(node) ? fields : undefined;
}

export function mentions(node: ASTNode, variable: string): boolean {
  return someNode(node, (candidate) => candidate.op === 'id' && candidate.args === variable);
}

export function someNode(node: ASTNode, test: (node: ASTNode) => boolean): boolean {
  return findNode(node, test) !== undefined;
}

export function findNode(node: ASTNode, test: (node: ASTNode) => boolean): ASTNode | undefined {
  if (test(node)) return node;
  for (const child of children(node)) {
    const found = findNode(child, test);
    if (found) return found;
  }
  return undefined;
}

export function children(node: ASTNode): ASTNode[] {
  const args = node.args as unknown;
  switch (node.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [(args as [ASTNode])[0]];
    case 'call':
      return (args as [string, ASTNode[]])[1];
    case 'rcall': {
      const [, receiver, rest] = args as [string, ASTNode, ASTNode[]];
      return [receiver, ...rest];
    }
    case 'map':
      return (args as Array<[ASTNode, ASTNode]>).flat();
    case '!_':
    case '-_':
      return [args as ASTNode];
    default:
      return Array.isArray(args) ? (args as ASTNode[]).filter(isNode) : [];
  }
}

export function isNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string';
}

/**
 * The list an expression checks item by item, when the whole expression is `record.<list>.all(x, …)`;
 * undefined otherwise (or when it does not parse).
 */
export function listCheckedPerItem(root: ASTNode): string | undefined {
  if (root.op !== 'rcall') return undefined;
  const [name, receiver] = root.args as [string, ASTNode, ASTNode[]];
  if (name !== 'all' || receiver.op !== '.') return undefined;
  const [target, list] = receiver.args as [ASTNode, string];
  return target.op === 'id' && target.args === 'record' ? list : undefined;
}

/**
 * Why an expression can never hold, when a count is compared with a number it can never meet
 * (`count(…) < 0`, `count(…) <= -1`, `count(…) == -2`, `0 > count(…)`); undefined otherwise. Counts are
 * never negative, so such a rule refuses every record, which is a mistake in the rule.
 */
export function countNeverPasses(
  env: Environment,
  expression: string,
  constant: (name: string) => number | undefined,
): string | undefined {
  let root: ASTNode;
  try {
    root = env.parse(expression).ast;
  } catch {
    return undefined;
  }
  const numberOf = (node: ASTNode): number | undefined => {
    if (node.op === 'value') {
      const value = node.args;
      return typeof value === 'bigint' || typeof value === 'number' ? Number(value) : undefined;
    }
    if (node.op === '-_') {
      const inner = numberOf(node.args as ASTNode);
      return inner === undefined ? undefined : -inner;
    }
    return node.op === 'id' ? constant(node.args as string) : undefined;
  };
  const isCount = (node: ASTNode) => node.op === 'call' && (node.args as [string, ASTNode[]])[0] === 'count';
  const impossible = (op: string, limit: number) =>
    (op === '<' && limit <= 0) || (op === '<=' && limit < 0) || (op === '==' && limit < 0);
  const visit = (node: ASTNode): string | undefined => {
    if (node.op === '&&') {
      for (const side of node.args as [ASTNode, ASTNode]) {
        const found = visit(side);
        if (found) return found;
      }
      return undefined;
    }
    if (!COMPARISONS.has(node.op)) return undefined;
    const [left, right] = node.args as [ASTNode, ASTNode];
    const text = node.input.slice(node.range.start, node.range.end);
    if (isCount(left)) {
      const limit = numberOf(right);
      if (limit !== undefined && impossible(node.op, limit))
        return `"${text}" never holds: a count is never below 0`;
    }
    if (isCount(right)) {
      const limit = numberOf(left);
      const op = REVERSED[node.op as Comparison];
      if (limit !== undefined && impossible(op, limit))
        return `"${text}" never holds: a count is never below 0`;
    }
    return undefined;
  };
  return visit(root);
}

/**
 * The names a check binds at its top (`cel.bind(open, count(…), open < MAX_OPEN_TICKETS)`), each with
 * an expression that computes it on its own (earlier names bound around it), so that a message can say
 * `{open}`: the value the check was refused with.
 */
export function topBindings(
  env: Environment,
  expression: string,
): Array<{ name: string; expression: string }> {
  let node: ASTNode;
  try {
    node = env.parse(expression).ast;
  } catch {
    return [];
  }
  const found: Array<{ name: string; expression: string }> = [];
  const around: Array<{ name: string; text: string }> = [];
  for (;;) {
    if (node.op !== 'rcall') return found;
    const [method, receiver, args] = node.args as [string, ASTNode, ASTNode[]];
    if (method !== 'bind' || receiver.op !== 'id' || receiver.args !== 'cel' || args.length !== 3)
      return found;
    const [variable, value, body] = args as [ASTNode, ASTNode, ASTNode];
    if (variable.op !== 'id') return found;
    const text = value.input.slice(value.range.start, value.range.end);
    const wrapped = around.reduceRight(
      (inner, outer) => `cel.bind(${outer.name}, ${outer.text}, ${inner})`,
      text,
    );
    found.push({ name: variable.args as string, expression: wrapped });
    around.push({ name: variable.args as string, text });
    node = body;
  }
}
