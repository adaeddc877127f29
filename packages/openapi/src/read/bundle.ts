import type { Issue, PathSegment } from '@ninefold/model';
import { MAX_DEPTH } from './limits';
import { type ParsedText, parseText } from './parse-text';
import { decodePointer, folderOf, isInside, isUrlReference, resolvePath, resolvePointer } from './refs';
import type { FileRefusal } from './types';

export interface BundleOptions {
  version: '2.0' | '3.0' | '3.1';
  root: ParsedText;
  readFile?: ((path: string) => string | undefined | FileRefusal) | undefined;
  /** The folder references may read from; the root document's own folder when not given. */
  rootFolder?: string | undefined;
}

/** Where a walk is: the file a node came from, and where that node lands in the bundled document. */
interface Scope {
  parsed: ParsedText;
  isRoot: boolean;
  /** Path in the bundled document of the node whose in-file path is `fileBase`. */
  logicalBase: PathSegment[];
  fileBaseLength: number;
}

/** Keys whose values are data (examples, enums, defaults), where a `$ref` key is not a reference. */
const DATA_KEYS = new Set(['example', 'enum', 'default', 'const']);
/** Keys whose members are names, so a member called "example" is not data. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'schemas',
  'dependentSchemas',
  'parameters',
  'responses',
  'requestBodies',
  'headers',
  'securitySchemes',
  'links',
  'callbacks',
  'pathItems',
  'examples',
]);

/**
 * Makes every `$ref` of the (already parsed) root document internal, in place: a reference to another
 * file (or to a part of one) is read with `readFile`, copied once into `components` (2.0: `definitions`,
 * `parameters`, `responses`) under a name taken from the file or pointer, and pointed at there. Internal
 * references are checked, not expanded, so cycles stay references. Returns the issues; never throws.
 */
export function bundle(document: Record<string, unknown>, options: BundleOptions): Issue[] {
  // Most documents are one file whose refs all resolve: then there is nothing to bundle or report, and a
  // bare walk (no paths kept) says so in about half the time of the full one.
  if (onlyResolvedInternalRefs(document)) return [];
  const issues: Issue[] = [];
  const rootFile = options.root.file;
  const files = new Map<string, ParsedText | undefined>([[rootFile, options.root]]);
  const pulled = new Map<string, string>();
  const usedNames = new Map<string, Set<string>>();
  const internalChecked = new Map<string, boolean>();
  let tooDeep = false;

  const issue = (
    scope: Scope,
    path: readonly PathSegment[],
    code: Issue['code'],
    message: string,
    severity: Issue['severity'] = 'error',
    hint?: string,
  ) => {
    const source = scope.parsed.locate(path) ?? { file: scope.parsed.file, line: 1, column: 1 };
    issues.push({ code, severity, message, path: [...path], source, ...(hint ? { hint } : {}) });
  };

  const rootFolder = options.rootFolder ?? folderOf(rootFile);
  /** Why a file may not be read, said once per file. */
  const refusals = new Map<string, string>();

  const loadFile = (file: string): ParsedText | undefined => {
    if (files.has(file)) return files.get(file);
    let text: string | undefined;
    try {
      const answer = options.readFile?.(file);
      if (typeof answer === 'object' && answer !== null) refusals.set(file, answer.refused);
      else text = answer;
    } catch {
      text = undefined;
    }
    const parsed = text === undefined ? undefined : parseText(text, file);
    if (parsed) issues.push(...parsed.issues);
    files.set(file, parsed);
    return parsed;
  };

  const containerFor = (kind: string): Record<string, unknown> => {
    const keys = options.version === '2.0' ? [kind] : ['components', kind];
    let at: Record<string, unknown> = document;
    for (const key of keys) {
      const next = at[key];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) at[key] = {};
      at = at[key] as Record<string, unknown>;
    }
    return at;
  };

  const uniqueName = (kind: string, wanted: string): string => {
    let names = usedNames.get(kind);
    if (!names) {
      names = new Set(Object.keys(containerFor(kind)));
      usedNames.set(kind, names);
    }
    const base = wanted.replace(/[^A-Za-z0-9._-]/g, '_') || 'Ref';
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base}${n}`;
    names.add(name);
    return name;
  };

  /** What a reference at this place in the bundled document points to, hence where its target goes. */
  const kindAt = (path: readonly PathSegment[]): string | undefined => {
    const last = path.at(-1);
    const parent = path.at(-2);
    const isPathItem =
      (path.length === 2 && (path[0] === 'paths' || path[0] === 'webhooks')) || path.at(-3) === 'callbacks';
    if (options.version === '2.0') {
      if (isPathItem) return undefined;
      if (parent === 'parameters') return 'parameters';
      if (parent === 'responses') return 'responses';
      return 'definitions';
    }
    if (isPathItem) return options.version === '3.1' ? 'pathItems' : undefined;
    if (parent === 'parameters') return 'parameters';
    if (parent === 'responses') return 'responses';
    if (last === 'requestBody' || parent === 'requestBodies') return 'requestBodies';
    if (parent === 'headers') return 'headers';
    if (parent === 'examples') return 'examples';
    if (parent === 'links') return 'links';
    if (parent === 'callbacks') return 'callbacks';
    if (parent === 'securitySchemes') return 'securitySchemes';
    return 'schemas';
  };

  const handleRef = (node: Record<string, unknown>, ref: string, path: PathSegment[], scope: Scope) => {
    const hash = ref.indexOf('#');
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    if (pointer !== '' && !pointer.startsWith('/')) {
      issue(
        scope,
        [...path, '$ref'],
        'unknown-reference',
        `"${ref}" names an anchor; only JSON pointer references ("#/...") are followed.`,
        'warning',
      );
      return;
    }
    if (filePart !== '' && isUrlReference(filePart)) {
      issue(
        scope,
        [...path, '$ref'],
        'refused-reference',
        `"${ref}" is a URL; Ninefold reads only files in the document's folder, never the network or a file: URL.`,
      );
      return;
    }
    const file = filePart === '' ? scope.parsed.file : resolvePath(scope.parsed.file, filePart);
    if (file !== rootFile && !isInside(rootFolder, file)) {
      issue(
        scope,
        [...path, '$ref'],
        'refused-reference',
        `"${ref}" leads to ${file}, outside ${rootFolder === '' ? "the document's folder" : rootFolder}; Ninefold reads only files in the document's folder (or the root you name).`,
        'error',
        'if that file is part of this API, name a root folder that holds both (ninefold --root DIR)',
      );
      return;
    }
    if (file === rootFile) {
      if (filePart !== '') node.$ref = `#${pointer}`;
      let found = internalChecked.get(pointer);
      if (found === undefined) {
        found = resolvePointer(document, pointer) !== undefined;
        internalChecked.set(pointer, found);
      }
      if (!found) {
        issue(scope, [...path, '$ref'], 'unknown-reference', `"${ref}" points to nothing in ${rootFile}.`);
      }
      return;
    }
    const key = `${file}#${pointer}`;
    const known = pulled.get(key);
    if (known !== undefined) {
      node.$ref = known;
      return;
    }
    const parsed = loadFile(file);
    const refusal = refusals.get(file);
    if (refusal !== undefined) {
      issue(scope, [...path, '$ref'], 'refused-reference', `"${ref}" was not read: ${refusal}.`);
      return;
    }
    if (!parsed) {
      issue(
        scope,
        [...path, '$ref'],
        'unreadable-file',
        options.readFile
          ? `"${ref}" refers to ${file}, which could not be read.`
          : `"${ref}" refers to another file (${file}), and no way to read files was given.`,
      );
      return;
    }
    if (parsed.data === undefined) return; // its own syntax issues are reported already
    const target = resolvePointer(parsed.data, pointer);
    if (target === undefined) {
      issue(scope, [...path, '$ref'], 'unknown-reference', `"${ref}" points to nothing in ${file}.`);
      return;
    }
    const logical =
      scope.isRoot && scope.fileBaseLength === 0
        ? path
        : [...scope.logicalBase, ...path.slice(scope.fileBaseLength)];
    const kind = kindAt(logical);
    const filePath = decodePointer(pointer);
    const copy = structuredClone(target) as unknown;
    const targetScope = (logicalBase: PathSegment[]): Scope => ({
      parsed,
      isRoot: false,
      logicalBase,
      fileBaseLength: filePath.length,
    });
    if (kind === undefined || copy === null || typeof copy !== 'object' || Array.isArray(copy)) {
      // A path item cannot be a component in 3.0 (nor anything in 2.0): it is copied in place.
      delete node.$ref;
      if (copy !== null && typeof copy === 'object' && !Array.isArray(copy)) Object.assign(node, copy);
      walk(node, [...filePath], targetScope([...logical]), logical.length);
      return;
    }
    const name = uniqueName(kind, String(filePath.at(-1) ?? baseName(file)));
    const destination = options.version === '2.0' ? [kind, name] : ['components', kind, name];
    const internal = `#/${destination.join('/')}`;
    pulled.set(key, internal);
    node.$ref = internal;
    containerFor(kind)[name] = copy;
    walk(copy, [...filePath], targetScope(destination), destination.length);
  };

  const walk = (node: unknown, path: PathSegment[], scope: Scope, depth: number): void => {
    if (depth > MAX_DEPTH) {
      if (!tooDeep) {
        tooDeep = true;
        issue(scope, path, 'too-deep', `The document nests deeper than ${MAX_DEPTH} levels here.`);
      }
      return;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (item !== null && typeof item === 'object') {
          path.push(i);
          walk(item, path, scope, depth + 1);
          path.pop();
        }
      }
      return;
    }
    const object = node as Record<string, unknown>;
    const ref = object.$ref;
    if (typeof ref === 'string') handleRef(object, ref, path, scope);
    const parentKey = path.at(-1);
    const isNameMap = typeof parentKey === 'string' && NAME_MAPS.has(parentKey);
    const isExample = path.at(-2) === 'examples';
    for (const key in object) {
      if (!isNameMap && (DATA_KEYS.has(key) || (isExample && key === 'value'))) continue;
      const value = object[key];
      if (value !== null && typeof value === 'object') {
        path.push(key);
        walk(value, path, scope, depth + 1);
        path.pop();
      }
    }
  };

  walk(document, [], { parsed: options.root, isRoot: true, logicalBase: [], fileBaseLength: 0 }, 0);
  return issues;
}

/**
 * Whether every `$ref` (examples included) is an internal JSON pointer that resolves, and nothing nests
 * deeper than MAX_DEPTH. When not, the full walk runs: it reports with paths, and knows examples from refs.
 */
function onlyResolvedInternalRefs(document: Record<string, unknown>): boolean {
  const checked = new Map<string, boolean>();
  const visit = (node: object, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    if (Array.isArray(node)) {
      for (const item of node) {
        if (item !== null && typeof item === 'object' && !visit(item, depth + 1)) return false;
      }
      return true;
    }
    const object = node as Record<string, unknown>;
    const ref = object.$ref;
    if (typeof ref === 'string') {
      let resolves = checked.get(ref);
      if (resolves === undefined) {
        resolves =
          ref === '#' || (ref.startsWith('#/') && resolvePointer(document, ref.slice(1)) !== undefined);
        checked.set(ref, resolves);
      }
      if (!resolves) return false;
    }
    for (const key in object) {
      const value = object[key];
      if (value !== null && typeof value === 'object' && !visit(value, depth + 1)) return false;
    }
    return true;
  };
  return visit(document, 0);
}

function baseName(file: string): string {
  const last = file.split(/[/\\]/).at(-1) ?? file;
  return last.replace(/\.(json|ya?ml)$/i, '') || 'Ref';
}
