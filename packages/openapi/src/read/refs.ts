import type { PathSegment } from '@ninefold/model';

/** The segments of a JSON pointer taken from a URI fragment (percent-decoded, then `~1` and `~0`). */
export function decodePointer(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => {
      let text = segment;
      if (text.includes('%')) {
        try {
          text = decodeURIComponent(text);
        } catch {
          // Not percent-encoded after all: keep it as written.
        }
      }
      return text.replaceAll('~1', '/').replaceAll('~0', '~');
    });
}

/** The value at a JSON pointer, or undefined. Only own properties count: "#/__proto__" resolves to nothing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  let at: unknown = root;
  for (const segment of decodePointer(pointer)) {
    if (at === null || typeof at !== 'object') return undefined;
    const key = String(segment);
    if (Array.isArray(at)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      at = at[Number(key)];
    } else {
      if (!Object.hasOwn(at, key)) return undefined;
      at = (at as Record<string, unknown>)[key];
    }
  }
  return at;
}

/**
 * The file `reference` names, relative to the file `from`: URLs resolve as URLs, everything else as
 * POSIX-style paths (`a/b/c.yaml` + `../d.yaml` is `a/d.yaml`).
 */
export function resolvePath(from: string, reference: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return reference;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) {
    try {
      return new URL(reference, from).href;
    } catch {
      return reference;
    }
  }
  const normalized = from.replaceAll('\\', '/');
  const base = reference.startsWith('/') ? [] : normalized.split('/').slice(0, -1);
  const absolute = normalized.startsWith('/') || reference.startsWith('/');
  const parts: string[] = [];
  for (const part of [...base, ...reference.split('/')]) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..') parts.pop();
    else if (part === '..' && absolute) continue;
    else parts.push(part);
  }
  return `${absolute ? '/' : ''}${parts.join('/')}`;
}

/**
 * Whether a reference names a URL rather than a path: a scheme (`http:`, `file:`, `data:`) or a
 * protocol-relative `//host/...`. Such references are never followed.
 */
export function isUrlReference(reference: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith('//') || reference.startsWith('\\\\');
}

/** The folder of a POSIX-style path: `a/b/c.yaml` -> `a/b`, `c.yaml` -> `` (the current folder). */
export function folderOf(file: string): string {
  const normalized = file.replaceAll('\\', '/');
  const slash = normalized.lastIndexOf('/');
  if (slash < 0) return '';
  return slash === 0 ? '/' : normalized.slice(0, slash);
}

/**
 * Whether the (already resolved) path `file` lies inside `folder`, compared by whole segments, so that
 * `/docs-other/x.yaml` is not inside `/docs`. Both are in the same form: relative, or absolute.
 *
 * @example
 * ```ts
 * isInside('spec', 'spec/parts/a.yaml'); // true
 * isInside('spec', 'spec-old/a.yaml'); // false
 * isInside('', '../secret.yaml'); // false
 * ```
 */
export function isInside(folder: string, file: string): boolean {
  const root = resolvePath(`${folder === '' ? '.' : folder}/x`, '.').replace(/\/$/, '');
  const target = file.replaceAll('\\', '/');
  if (target.startsWith('/') !== folder.startsWith('/')) return false;
  if (root === '') return target !== '..' && !target.startsWith('../');
  if (root === '/') return true;
  return target.startsWith(`${root}/`);
}
