import { readFile } from 'node:fs/promises';
import { checkExtension, type Issue, type LoadResult, locateIn, type SourcePosition } from '@ninefold/model';
import { type ExtensionProblem, readExtensionModule } from '@ninefold/web/extension-module';
import { typeCheckExtension } from '@ninefold/web/extension-types';
import { shown } from './module-issue';

/**
 * What `check` says of a specification's extension module (docs/extending.md), or of its widgets when
 * it has none: the module's build, load and type errors at their `file:line:column`, and every name on
 * either side that the other does not have (see `checkExtension` in packages/model).
 */
export async function extensionIssues(result: LoadResult, extension: string | undefined): Promise<Issue[]> {
  const model = result.model;
  if (!model) return [];
  const locateSpec = (path: readonly (string | number)[]) => locateIn(result, path);
  if (extension === undefined) return checkExtension(model, undefined, { locateSpec });
  // Side by side: loading takes Vite a second or two, type-checking about as long.
  const [read, checked] = await Promise.all([readExtensionModule(extension), typeCheckExtension(extension)]);
  if (!read.ok) return [problemIssue(read.problem)];
  const types = checked ?? [];
  return [
    ...types.map(problemIssue),
    ...checkExtension(model, read.names, { locateSpec, ...(await nameLocator(read.files)) }),
  ];
}

/**
 * The names the extension module uses that the specification lacks, and the other way round, without
 * the type check: what `dev` shows beside a build, in a second rather than `check`'s several. A module
 * that cannot be read says nothing here: its build says why.
 */
export async function orphanIssues(result: LoadResult, extension: string): Promise<Issue[]> {
  const model = result.model;
  if (!model) return [];
  const read = await readExtensionModule(extension);
  if (!read.ok) return [];
  const locateSpec = (path: readonly (string | number)[]) => locateIn(result, path);
  return checkExtension(model, read.names, { locateSpec, ...(await nameLocator(read.files)) });
}

function problemIssue(problem: ExtensionProblem): Issue {
  return {
    code: 'extension-error',
    severity: 'error',
    message: `The extension module: ${problem.message}`,
    path: [],
    source: {
      file: shown(problem.file),
      line: problem.line ?? 1,
      column: problem.column ?? 1,
    },
  };
}

/** Finds names in the module's code files (its CSS and images aside), read once. */
export async function nameLocator(
  files: readonly string[],
): Promise<{ locateName: (name: string) => SourcePosition | undefined }> {
  const texts = new Map<string, string>();
  for (const file of files.filter((each) => /\.(?:tsx|ts|jsx|js)$/.test(each))) {
    texts.set(file, await readFile(file, 'utf8').catch(() => ''));
  }
  return { locateName: (name) => firstMention(texts, name) };
}

/**
 * Where a name is first written in the extension's files: as a quoted string or a key (`'Product.stock'`,
 * `Order:`), else anywhere as a word. The module's object is not read with positions, so this is where
 * a person would look.
 */
export function firstMention(texts: ReadonlyMap<string, string>, name: string): SourcePosition | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = [new RegExp(`['"\`]${escaped}['"\`]|\\b${escaped}\\s*:`), new RegExp(`\\b${escaped}\\b`)];
  for (const pattern of patterns) {
    for (const [file, text] of texts) {
      const match = pattern.exec(text);
      if (!match) continue;
      const before = text.slice(0, match.index);
      const line = before.split('\n').length;
      const column = match.index - before.lastIndexOf('\n');
      return { file: shown(file), line, column };
    }
  }
  return undefined;
}
