import { readFile } from 'node:fs/promises';
import { loadAnySpec } from '@ninefold/cli/load-any-spec';
import { printReport } from '@ninefold/cli/report';
import { refreshSpecTypes } from '@ninefold/cli/spec-types-file';
import { describeApi, prototypeApi, specPayload } from '@ninefold/model';
import type { Plugin } from 'vite';

export interface NinefoldPluginOptions {
  /**
   * Where the client makes its calls. `'prototype'` (the default): Ninefold's prototype API
   * (`ninefold serve SPEC`), proxied by the app at the spec's Base URL or `/api`, with its sign-in and
   * history calls. An address (`https://api.example.com/v1` or `/v1`): the real API the spec describes.
   */
  api?: 'prototype' | string;
  /** `--client-id`: the OAuth2 client an imported OpenAPI document's sign-in signs in as. */
  clientId?: string;
}

/** The query that makes an import of a specification a checked model: `import shop from './shop.md?ninefold'`. */
const QUERY = '?ninefold';

/**
 * The Vite plugin of `@ninefold/react`: a specification (nine-point Markdown, YAML, JSON, or an OpenAPI
 * document) imported with `?ninefold` is read and checked at build, like `ninefold check`, and becomes
 * the `{ model, api }` that `<NinefoldApp>` takes. An error stops the build with each issue at its
 * `file:line:column`; warnings are printed and the build goes on. A change of the file reloads it in dev.
 *
 * The app's extension module is checked through its names: where the specification's names live beside
 * it (`shop.types.ts`, written once by `ninefold types shop.md -o shop.types.ts`), the plugin writes them
 * again when they change, as `check` and `dev` do, so that the app's own `tsc` fails where the module
 * uses a field, transition or screen the specification no longer has.
 *
 * @example
 * ```ts
 * // vite.config.ts
 * export default defineConfig({ plugins: [react(), ninefold()] });
 * ```
 */
export function ninefold(options: NinefoldPluginOptions = {}): Plugin {
  return {
    name: 'ninefold',
    // An extension module written for `ninefold serve --ui` imports the same API by its other name: one
    // module then serves both ways of running the client.
    config: () => ({ resolve: { alias: { '@ninefold/web/extension': '@ninefold/react' } } }),
    async load(id) {
      if (!id.endsWith(QUERY)) return undefined;
      const file = id.slice(0, -QUERY.length);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        this.error(`ninefold: cannot read ${file}: ${(error as Error).message}`);
      }
      this.addWatchFile(file);
      const result = loadAnySpec(text, file, options.clientId ? { clientId: options.clientId } : {});
      if (!result.ok || !result.model || result.issues.length > 0) {
        const report = reportOf(result, file);
        if (!result.ok || !result.model) this.error(`ninefold: ${file} has errors\n${report}`);
        this.warn(`ninefold: ${file} has warnings\n${report}`);
      }
      const model = result.model;
      await refreshSpecTypes(file, model);
      const api =
        options.api === undefined || options.api === 'prototype'
          ? prototypeApi(model)
          : { ...describeApi(model), base: options.api };
      return { code: `export default ${JSON.stringify(specPayload(model, api))};\n`, map: null };
    },
  };
}

/** The issues as `ninefold check` prints them, without colour. */
function reportOf(result: Parameters<typeof printReport>[0], file: string): string {
  let text = '';
  printReport(result, file, { out: (line) => (text += line), err: (line) => (text += line), color: false });
  return text.trimEnd();
}
