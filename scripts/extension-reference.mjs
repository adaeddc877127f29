// Writes the reference of the extension API (`@ninefold/web/extension`, re-exported by `@ninefold/react`)
// from its types and their doc comments, with TypeDoc, into docs/reference/extension/. The reference is
// made from the types, so it cannot drift from them; test/extension-reference.test.ts fails when the
// committed pages are not what this writes.
//
//   node scripts/extension-reference.mjs [OUT_DIR]
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application } from 'typedoc';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REFERENCE_DIR = join(ROOT, 'docs/reference/extension');

/** Writes the pages into `out`; throws with TypeDoc's own words when it reports an error. */
export async function writeExtensionReference(out = REFERENCE_DIR) {
  const app = await Application.bootstrapWithPlugins({
    entryPoints: [join(ROOT, 'packages/web/src/extension/public.ts')],
    tsconfig: join(ROOT, 'packages/web/tsconfig.json'),
    plugin: ['typedoc-plugin-markdown'],
    readme: 'none',
    name: '@ninefold/web/extension',
    // Only what a module can import: what the entry exports, not the client's internals behind it.
    excludeNotDocumented: false,
    excludePrivate: true,
    excludeInternal: true,
    // React's own props (a link's two hundred anchor attributes) are React's to document.
    excludeExternals: true,
    disableSources: true,
    hideGenerator: true,
    // The same pages on every machine and day.
    githubPages: false,
    outputFileStrategy: 'modules',
    logLevel: 'Error',
    skipErrorChecking: true,
  });
  const project = await app.convert();
  if (!project || app.logger.hasErrors()) throw new Error('TypeDoc could not read the extension API');
  await rm(out, { recursive: true, force: true });
  await app.outputs.writeOutput({ name: 'markdown', path: out }, project);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? REFERENCE_DIR;
  const started = performance.now();
  await writeExtensionReference(out);
  console.log(
    `wrote the extension API's reference to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
