// The packages' boundaries, held by a test: a package imports another only through that package's
// declared exports, only if its own package.json names it, and only downward in the layering of
// docs/architecture.md. Relative imports stay inside their package. A new import that crosses a
// boundary fails here with the file and the line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACKAGES = ['model', 'openapi', 'database', 'server', 'web', 'cli', 'react'] as const;
type PackageName = (typeof PACKAGES)[number];

/** Who may import whom (docs/architecture.md): the core imports nothing of ours, the command everything. */
const MAY_IMPORT: Record<PackageName, readonly PackageName[]> = {
  model: [],
  openapi: ['model'],
  database: ['model', 'openapi'],
  server: ['model', 'database'],
  web: ['model', 'openapi', 'server'],
  cli: ['model', 'openapi', 'database', 'server', 'web'],
  react: ['model', 'openapi', 'database', 'server', 'web', 'cli'],
};
/**
 * Crossings allowed by name, each with its reason. brand-theme.ts is loaded by vite.config.ts in Node,
 * where Vite's config loader leaves '@ninefold/model' to Node, which cannot read TypeScript.
 */
const ALLOWED_CROSSINGS = new Set([
  'packages/web/src/extension/brand-theme.ts -> packages/model/src/rules/brand',
]);
/** Folders of the repository, not of a package, that a package may read (the playground bundles them). */
const SHARED_FILES = ['schema/', 'examples/'];
/** The folders of a package whose files ship or run: its tests may reach further, to build fixtures. */
const SOURCE_DIRS = ['src', 'runtime', 'scripts'];

interface PackageJson {
  name: string;
  exports?: Record<string, unknown> | string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifests = Object.fromEntries(
  PACKAGES.map((name) => [
    name,
    JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8')) as PackageJson,
  ]),
) as Record<PackageName, PackageJson>;

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== 'node_modules' && entry !== 'dist') found.push(...sourceFiles(path));
    } else if (/\.(?:ts|tsx|mts|mjs|js)$/.test(entry) && !entry.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

interface Import {
  file: string;
  line: number;
  specifier: string;
}

/** Every import and export-from of a file, static or dynamic, as TypeScript's own scanner finds them. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => ({
    file: relative(ROOT, file),
    line: text.slice(0, imported.pos).split('\n').length,
    specifier: imported.fileName,
  }));
}

/** The packages a manifest names; `@types/x` names `x` for a type-only import. */
function declared(manifest: PackageJson): Set<string> {
  const names = Object.keys({
    ...manifest.dependencies,
    ...manifest.devDependencies,
    ...manifest.peerDependencies,
  });
  return new Set([
    ...names,
    ...names.filter((name) => name.startsWith('@types/')).map((name) => name.slice(7)),
  ]);
}

function exportsSubpath(manifest: PackageJson, subpath: string): boolean {
  const exports = manifest.exports;
  if (exports === undefined) return subpath === '.';
  if (typeof exports === 'string') return subpath === '.';
  return Object.hasOwn(exports, subpath);
}

/** What is wrong with one import of a package, or undefined. */
function crossing(owner: PackageName, found: Import): string | undefined {
  const { specifier } = found;
  const ownDir = join(ROOT, 'packages', owner) + sep;
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(join(ROOT, found.file)), specifier);
    if (target.startsWith(ownDir)) return undefined;
    const path = relative(ROOT, target);
    // The repository's shared files (the published schema, the examples) are no package's insides.
    if (SHARED_FILES.some((folder) => path.startsWith(folder))) return undefined;
    if (ALLOWED_CROSSINGS.has(`${found.file} -> ${path}`)) return undefined;
    return `reaches into ${path} by a relative path; import the package by its name and its exports`;
  }
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] ?? ''))
    return undefined;
  // Modules Vite makes at build time (the extension, the theme) are not packages.
  if (specifier.startsWith('virtual:') || specifier.startsWith('\0')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '');
  const subpath = `.${specifier.slice(name.length)}` || '.';
  const manifest = manifests[owner];
  if (name.startsWith('@ninefold/')) {
    const target = name.slice('@ninefold/'.length) as PackageName;
    if (!PACKAGES.includes(target)) return `imports ${name}, which is not one of the packages`;
    if (target !== owner && !MAY_IMPORT[owner].includes(target))
      return `imports ${name}, which ${owner} may not import (docs/architecture.md)`;
    if (target !== owner && !declared(manifest).has(name))
      return `imports ${name}, which packages/${owner}/package.json does not name`;
    if (!exportsSubpath(manifests[target], subpath))
      return `imports ${specifier}, which packages/${target}/package.json does not export`;
    return undefined;
  }
  if (!declared(manifest).has(name) && !declaredAtRoot.has(name))
    return `imports ${name}, which neither packages/${owner}/package.json nor the root's names`;
  return undefined;
}

const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const declaredAtRoot = declared(rootManifest);

describe('package boundaries', () => {
  for (const owner of PACKAGES) {
    it(`packages/${owner} imports only what it names, through exports, down the layers`, () => {
      const files = SOURCE_DIRS.map((dir) => join(ROOT, 'packages', owner, dir))
        .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
        .flatMap(sourceFiles);
      expect(files.length).toBeGreaterThan(0);
      const problems = files
        .flatMap(importsOf)
        .map((found) => ({ found, problem: crossing(owner, found) }))
        .filter(({ problem }) => problem !== undefined)
        .map(({ found, problem }) => `${found.file}:${found.line}: ${problem}`);
      expect(problems).toEqual([]);
    });
  }

  it('finds a crossing when there is one (the check itself)', () => {
    const file = 'packages/web/src/x.ts';
    expect(crossing('web', { file, line: 1, specifier: '../../server/src/app' })).toMatch(/reaches into/);
    expect(crossing('web', { file, line: 1, specifier: '@ninefold/cli' })).toMatch(/may not import/);
    expect(
      crossing('model', { file: 'packages/model/src/x.ts', line: 1, specifier: '@ninefold/server' }),
    ).toMatch(/may not import/);
    expect(crossing('web', { file, line: 1, specifier: '@ninefold/server/src/app' })).toMatch(
      /does not export/,
    );
    expect(crossing('web', { file, line: 1, specifier: 'left-pad' })).toMatch(/names/);
    expect(crossing('web', { file, line: 1, specifier: '@ninefold/model' })).toBeUndefined();
    expect(crossing('web', { file, line: 1, specifier: '../../../examples/shop.md?raw' })).toBeUndefined();
  });
});
