import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';

/** The help text's line for `--ui`, the same in every command that takes it. */
export const UI_OPTION_HELP = `  --ui FILE             the team's extension module (TSX), bundled with the client; by default
                        SPEC's name with .ui.tsx (shop.ui.tsx beside shop.md), or ui/index.tsx beside
                        SPEC, when there is one. See docs/extending.md`;

export type ExtensionFile = { ok: true; file: string | undefined } | { ok: false; message: string };

/**
 * The extension module of a specification: the one `--ui` names (which must exist), else the one found
 * beside the specification (`SPEC.ui.tsx`, or `ui/index.tsx`), else none. Two found is a question only
 * the team can answer, so it is refused rather than one picked.
 *
 * @example
 * await extensionFile('examples/shop.md', undefined); // { ok: true, file: undefined }
 * await extensionFile('shop.md', 'shop-ui/index.tsx'); // { ok: true, file: '/abs/shop-ui/index.tsx' }
 */
export async function extensionFile(spec: string, option: string | undefined): Promise<ExtensionFile> {
  if (option !== undefined) {
    const file = resolve(option);
    const info = await stat(file).catch(() => undefined);
    if (!info) return { ok: false, message: `--ui: ${option} does not exist.` };
    if (!info.isFile()) return { ok: false, message: `--ui: ${option} is not a file.` };
    if (!/\.(?:tsx|ts|jsx|js)$/.test(file)) {
      return {
        ok: false,
        message: `--ui: ${option} is not a TypeScript or JavaScript module (.tsx, .ts, .jsx, .js).`,
      };
    }
    return { ok: true, file };
  }
  const found: string[] = [];
  for (const candidate of candidates(spec)) {
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile()) found.push(candidate);
  }
  if (found.length > 1) {
    const names = found.map((file) => relative(process.cwd(), file)).join(' and ');
    return {
      ok: false,
      message: `two extension modules sit beside the specification (${names}); name one with --ui.`,
    };
  }
  return { ok: true, file: found[0] };
}

/** Where a specification's extension module is looked for. */
export function candidates(spec: string): string[] {
  const dir = dirname(resolve(spec));
  const name = basename(spec, extname(spec));
  return [join(dir, `${name}.ui.tsx`), join(dir, 'ui', 'index.tsx')];
}
