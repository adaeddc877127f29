import { type Context, isRecord, isScopeVariable, report, shownList, text } from './context';

// The checks of point 9 (business constants and limits). check/index.ts runs them in point order over one shared Context.

export function checkConstants(context: Context): void {
  const constants = shownList(context.model.constants, 'items');
  if (!constants) return;
  const seen = new Set<string>();
  for (const constant of constants) {
    const name = isRecord(constant) ? text(constant.name) : undefined;
    if (name === undefined) continue;
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        ['constants', name],
        `Constant "${name}" is defined twice in point 9 (business constants and limits). Keep one value.`,
      );
      continue;
    }
    seen.add(name);
    if (isScopeVariable(name) || CEL_RESERVED.has(name)) {
      report(
        context,
        'invalid-value',
        ['constants', name],
        `Constant "${name}" (point 9) cannot be used in expressions, because "${name}" is ` +
          `${isScopeVariable(name) ? 'a variable of expressions' : 'a reserved word of CEL'}. Rename it.`,
        { severity: 'warning' },
      );
    }
  }
}

// Words CEL keeps for itself (the CEL language definition); a constant by such a name is never visible.
export const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);
