import type { ComponentType } from 'react';

/**
 * A function component, or one made by `memo`, `forwardRef` or `lazy` (objects React marks): how the
 * runtime tells a slot's component from a slot keyed by entity, and `check` does the same in Node.
 */
export function isComponent(value: unknown): value is ComponentType<never> {
  return typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value);
}
