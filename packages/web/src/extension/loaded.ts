import type { Extension } from './types';

/** The extension the client runs with: the team's module, or none, or the reason it could not load. */
export interface LoadedExtension {
  extension: Extension;
  /** Why the module could not be loaded or read; the client then runs with the built-in screens. */
  failure?: string;
}

export const NO_EXTENSION: LoadedExtension = Object.freeze({ extension: Object.freeze({}) });

/** Every key of `Extension` (a test holds the two equal). */
export const EXTENSION_KEYS = ['name', 'fields', 'screens', 'slots', 'actions', 'theme'] as const;
const KEYS: ReadonlySet<string> = new Set(EXTENSION_KEYS);

/**
 * What a module's default export means as an extension. A module that exports none is no extension; one
 * that exports something else, or names keys we do not know, is refused as a whole, with the reason: a
 * half-read extension would show some overrides and silently drop others.
 *
 * @example
 * readExtension({ default: { slots: {} } }); // { extension: { slots: {} } }
 * readExtension({ default: 3 }); // { extension: {}, failure: 'its default export is a number, …' }
 */
export function readExtension(module: unknown): LoadedExtension {
  const value = (module as { default?: unknown } | null)?.default;
  if (value === undefined || value === null) return NO_EXTENSION;
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      ...NO_EXTENSION,
      failure: `its default export is ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not the object defineExtension returns`,
    };
  }
  const unknown = Object.keys(value).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) {
    return {
      ...NO_EXTENSION,
      failure: `it has keys no extension has (${unknown.join(', ')}); known keys are ${[...KEYS].join(', ')}`,
    };
  }
  return { extension: value as Extension };
}
