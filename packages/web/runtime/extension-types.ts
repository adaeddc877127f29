import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ExtensionProblem, isTeamFile } from './extension-module';

const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
const PUBLIC_MODULE = join(WEB_DIR, 'src/extension/public.ts');

/**
 * The compiler options of an extension module's check, as the bundler sees the module: bare imports
 * resolve from the client's packages (vite.config.ts's `dedupe`), wherever the team's file is. The
 * `paths` are absolute: TypeScript 7 has no `baseUrl`.
 */
const OPTIONS = {
  target: 'es2022',
  module: 'esnext',
  moduleResolution: 'bundler',
  jsx: 'react-jsx',
  lib: ['es2023', 'dom', 'dom.iterable'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  isolatedModules: true,
  verbatimModuleSyntax: false,
  types: [] as string[],
  paths: {
    '@ninefold/web/extension': [PUBLIC_MODULE],
    '*': [
      'node_modules/@types/*',
      '../../node_modules/@types/*',
      'node_modules/*',
      '../../node_modules/*',
    ].map((path) => join(WEB_DIR, path)),
  },
};

/**
 * Type-checks an extension module against the types of `@ninefold/web/extension`, each error a problem
 * at its place; undefined when TypeScript 7 is not installed. TypeScript 7, the compiler in Go (the
 * `typescript-go` alias the type check of the repository runs): 2.8 s for the tool library's module,
 * where TypeScript 5.9's API took 10.8 s, and `check` waits for it. Only a clone builds and checks
 * extension modules (docs/extending.md), and a clone has it.
 */
export async function typeCheckExtension(
  file: string,
  signal?: AbortSignal,
): Promise<ExtensionProblem[] | undefined> {
  const compiler = resolveFrom('typescript-go/package.json');
  if (!compiler) return undefined;
  const problems = await checkNatively(join(compiler, '..', 'bin', 'tsc'), rootsOf(resolve(file)), signal);
  // Errors inside the client's own sources are the client's to fix, not the team's.
  return problems.filter((problem) => isTeamFile(problem.file));
}

function rootsOf(path: string): string[] {
  const vitePackage = resolveFrom('vite/package.json');
  return [
    path,
    join(WEB_DIR, 'src/extension/virtual-module.d.ts'),
    ...(vitePackage ? [join(vitePackage, '..', 'client.d.ts')] : []),
  ];
}

/** `tsc -p` on a project of the roots alone, written to a folder of its own, read from `--pretty false`. */
async function checkNatively(
  tsc: string,
  roots: string[],
  signal: AbortSignal | undefined,
): Promise<ExtensionProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ninefold-types-'));
  try {
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: OPTIONS, files: roots }));
    const output = await new Promise<string>((done, fail) => {
      execFile(
        process.execPath,
        [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'],
        { cwd: dir, maxBuffer: 64 * 1024 * 1024, ...(signal ? { signal } : {}) },
        (error, stdout, stderr) => {
          // Exit 1 or 2 is "errors found"; anything else, or no diagnostics at all with a failure, is the
          // compiler's own failure.
          const code = (error as { code?: unknown } | null)?.code;
          if (error && code !== 1 && code !== 2) fail(error);
          else if (error && stdout.trim() === '') fail(new Error(stderr.trim() || error.message));
          else done(stdout);
        },
      );
    });
    return parseDiagnostics(output, dir, roots[0] as string);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `file(line,col): error TS1234: message`, a message's chain on the indented lines after it; a
 * diagnostic with no file (an option) is the module's.
 */
export function parseDiagnostics(output: string, base: string, module: string): ExtensionProblem[] {
  const problems: ExtensionProblem[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const placed = /^(.+?)\((\d+),(\d+)\): error TS\d+: (.*)$/.exec(line);
    const unplaced = placed ? null : /^error TS\d+: (.*)$/.exec(line);
    if (placed) {
      problems.push({
        message: placed[4] as string,
        file: resolve(base, placed[1] as string),
        line: Number(placed[2]),
        column: Number(placed[3]),
      });
    } else if (unplaced) {
      problems.push({ message: unplaced[1] as string, file: module });
    } else if (/^\s/.test(line) && problems.length > 0) {
      const last = problems[problems.length - 1] as ExtensionProblem;
      last.message = `${last.message} ${line.trim()}`;
    }
  }
  return problems;
}

/** A file of a package the client depends on, found as Node finds it from packages/web. */
function resolveFrom(specifier: string): string | undefined {
  try {
    return createRequire(join(WEB_DIR, 'package.json')).resolve(specifier);
  } catch {
    return undefined;
  }
}
