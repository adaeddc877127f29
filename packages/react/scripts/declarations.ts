import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import ts from 'typescript';

const TSCONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

/**
 * The client's declarations in one file: Ninefold's own types (the model of @ninefold/model, the
 * extension's) written out in it, React's imported from React, which the app has.
 */
export async function writeClientDeclarations(entry: string, out: string): Promise<void> {
  const [text] = generateDtsBundle(
    [
      {
        filePath: entry,
        libraries: { importedLibraries: ['react'] },
        output: { noBanner: true, exportReferencedTypes: false },
      },
    ],
    { preferredConfigPath: TSCONFIG },
  );
  if (text === undefined) throw new Error(`no declarations were made for ${entry}`);
  await writeFile(out, text);
}

/**
 * The plugin's declarations: its own file's, which name only Vite's `Plugin`. (Bundled like the client's,
 * Vite's own types would be walked too, and they import an optional package that is not installed.)
 */
export async function writePluginDeclarations(entry: string, out: string): Promise<void> {
  const source = await readFile(entry, 'utf8');
  const { outputText, diagnostics } = ts.transpileDeclaration(source, {
    fileName: entry,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  if (diagnostics?.length) {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText ?? '', '\n'));
  }
  await writeFile(out, outputText);
}
