import { readFileSync, realpathSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { type Issue, type LoadResult, loadSpec } from '@ninefold/model';
import { type FileRefusal, type ImportReport, importOpenApi, looksLikeOpenApi } from '@ninefold/openapi';

/** A loaded specification, and the import report when it was an OpenAPI document. */
export type AnySpecResult = LoadResult & { report?: ImportReport; openApi?: boolean };

export interface LoadAnyOptions {
  /** The folder an OpenAPI document's `$ref`s may read from; the document's own folder by default. */
  root?: string | undefined;
  /** `--client-id`: the client an OAuth2 or OpenID Connect sign-in signs in as, where nothing names one. */
  clientId?: string | undefined;
  /** `--sign-in`: an OpenAPI document's security scheme to sign in with, over the one the import picks. */
  signInScheme?: string | undefined;
}

/**
 * Loads SPEC whatever it is: a nine-point specification (Markdown, YAML, JSON), or an OpenAPI document,
 * which is imported into the same model (the reader resolves the files it refers to; this reads them,
 * only inside the root).
 */
export function loadAnySpec(text: string, file: string, options: LoadAnyOptions = {}): AnySpecResult {
  // A blank `--client-id ""` names no client: the sign-in page asks for one, as without the option.
  const clientId = options.clientId?.trim() || undefined;
  const signInScheme = options.signInScheme?.trim() || undefined;
  if (!looksLikeOpenApi(text)) {
    const loaded = withClientId(loadSpec(text, { file }), clientId);
    return signInScheme === undefined ? loaded : refuseSignInOption(loaded, file);
  }
  const root = options.root ?? dirname(file);
  const imported = importOpenApi(
    { text, file },
    {
      readFile: confinedReader(root),
      root: sameForm(file, root),
      ...(clientId === undefined ? {} : { clientId }),
      ...(signInScheme === undefined ? {} : { signInScheme }),
    },
  );
  return {
    ok: imported.ok,
    ...(imported.model ? { model: imported.model } : {}),
    ...(imported.coverage ? { coverage: imported.coverage } : {}),
    ...(imported.report ? { report: imported.report } : {}),
    format: file.endsWith('.json') ? 'json' : 'yaml',
    issues: imported.issues,
    openApi: true,
  };
}

/** A specification says its one sign-in itself (point 6): `--sign-in` chooses among a document's schemes only. */
function refuseSignInOption(result: LoadResult, file: string): LoadResult {
  const issue: Issue = {
    code: 'invalid-value',
    severity: 'error',
    message:
      "--sign-in chooses among an OpenAPI document's security schemes; a nine-point specification names its sign-in in point 6.",
    path: [],
    source: { file, line: 1, column: 1 },
  };
  return { ...result, ok: false, issues: [issue, ...result.issues] };
}

/** A specification's OAuth2 sign-in that names no client id signs in as the one given at the command. */
function withClientId(result: LoadResult, clientId: string | undefined): LoadResult {
  const roles = result.model?.roles;
  if (clientId === undefined || !roles?.shown) return result;
  const signIn = roles.signIn;
  if (signIn.kind !== 'oauth2' || signIn.clientId !== undefined) return result;
  signIn.clientId = clientId;
  return result;
}

/**
 * The root in the form the reader compares paths in: absolute when the document's name is, else
 * relative to the working folder like the document's name ("" for the working folder itself).
 */
function sameForm(file: string, root: string): string {
  if (file.startsWith('/')) return resolve(root);
  return relative(process.cwd(), resolve(root)).split(sep).join('/');
}

/**
 * Reads a file only when its real path, symbolic links resolved, is inside the real path of `root`: the
 * reader has already refused URLs and paths that leave the root by their text, and this catches a link
 * inside the folder that points out of it.
 */
function confinedReader(root: string): (path: string) => string | undefined | FileRefusal {
  let realRoot: string | undefined;
  return (path) => {
    let real: string;
    try {
      realRoot ??= realpathSync(root);
      real = realpathSync(path);
    } catch {
      return undefined;
    }
    if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
      return { refused: `it is a link to ${real}, outside ${realRoot}` };
    }
    try {
      return readFileSync(real, 'utf8');
    } catch {
      return undefined;
    }
  };
}
