/**
 * The `default` branch of a switch that handles every member of a union. TypeScript proves it
 * unreachable; if it is reached anyway, a value that the types ruled out got in, which is a programmer
 * error, so it throws (the one kind of throw the house style allows).
 *
 * @example
 * ```ts
 * function describe(kind: 'list' | 'detail'): string {
 *   switch (kind) {
 *     case 'list':
 *       return 'a table of records';
 *     case 'detail':
 *       return 'one record';
 *     default:
 *       return exhaustiveSwitchError(kind);
 *   }
 * }
 * ```
 */
export function exhaustiveSwitchError(value: never): never {
  throw new Error(`Unexpected value in an exhaustive switch: ${describeValue(value)}`);
}

function describeValue(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch {
    // Cyclic or BigInt-holding values cannot be serialized; String() still names them.
  }
  return String(value);
}
