import { type Coverage, checkModel, coverageOf, hasErrors, type Issue, type Model } from '@ninefold/model';
import { contractVersion, readContract, withoutServices } from './contract';
import type { ImportReport } from './import-report';
import { readOpenApi } from './read/read-openapi';
import type { OpenApiVersion, ReadOptions } from './read/types';
import { type OpenApi3Like, toModel } from './to-model';

export interface ImportResult {
  /** True when there is a model and no issue is an error. */
  ok: boolean;
  model?: Model;
  coverage?: Coverage;
  /** What was mapped, inferred, left not shown or skipped, point by point, with pointers. */
  report?: ImportReport;
  version: OpenApiVersion;
  /** Reading issues, mapping issues and the model's own check, in that order. */
  issues: Issue[];
}

/** The steps of an import after reading, for progress in a long one (GitHub's document takes a second). */
export type ImportStage = 'map' | 'check';

export interface ImportOptions extends ReadOptions {
  /** Called as each step after reading starts. */
  onStage?: (stage: ImportStage) => void;
  /** The client id an OAuth2 or OpenID Connect sign-in uses: documents never say it. */
  clientId?: string;
  /**
   * The security scheme to sign in with, by its name in `components.securitySchemes`, when the document
   * has several: the import otherwise picks the one the operations use (docs/openapi.md).
   */
  signInScheme?: string;
}

/**
 * Reads an OpenAPI document (any version, JSON or YAML, one file or several through `readFile`), maps it
 * to the nine-point model and checks the model, as `loadSpec` does for a specification. Never throws.
 *
 * @example
 * ```ts
 * const result = importOpenApi({ text, file: 'openapi.yaml' }, { readFile: (path) => readFileSync(path, 'utf8') });
 * if (result.model) console.log(formatImportReport(result.report));
 * ```
 */
export function importOpenApi(
  input: { text: string; file: string },
  options: ImportOptions = {},
): ImportResult {
  const read = readOpenApi(input, options);
  if (!read.document) return { ok: false, version: read.version, issues: read.issues };
  let mapped: ReturnType<typeof toModel>;
  options.onStage?.('map');
  // A Ninefold contract's own services (the session, history, names…) are not calls of its specification.
  const contract = contractVersion(read.document) !== undefined;
  const document = contract ? withoutServices(read.document) : read.document;
  try {
    // The mapper checks every value it reads, so it takes the document by a looser structural type.
    mapped = toModel(document as unknown as OpenApi3Like, {
      file: input.file,
      ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
      ...(options.signInScheme === undefined ? {} : { signInScheme: options.signInScheme }),
    });
  } catch (error) {
    // toModel turns each failing step into an issue; this is the last guard against a bug in it.
    const issue: Issue = {
      code: 'syntax',
      severity: 'error',
      message: `Ninefold could not import this document because of an internal error (${(error as Error).message}). Please report it with the file.`,
      path: [],
      source: { file: input.file, line: 1, column: 1 },
    };
    return { ok: false, version: read.version, issues: [...read.issues, issue] };
  }
  options.onStage?.('check');
  if (contract) {
    const read_ = readContract(
      read.document as unknown as Record<string, unknown>,
      mapped.model,
      input.file,
      mapped.report,
    );
    if ('result' in read_) {
      const issues = [...read.issues, ...read_.issues];
      return {
        ok: !hasErrors(issues) && read_.result.model !== undefined,
        ...(read_.result.model
          ? { model: read_.result.model, coverage: coverageOf(read_.result.model) }
          : {}),
        report: mapped.report,
        version: read.version,
        issues,
      };
    }
    mapped.issues.push(...read_.issues);
  }
  const checked = checkModel(mapped.model).map((issue) => ({
    ...issue,
    source: issue.source ?? { file: input.file, line: 1, column: 1 },
  }));
  const issues = [...read.issues, ...mapped.issues, ...checked];
  return {
    ok: !hasErrors(issues),
    model: mapped.model,
    coverage: coverageOf(mapped.model),
    report: mapped.report,
    version: read.version,
    issues,
  };
}

/**
 * Whether a text is an OpenAPI or Swagger document rather than a nine-point specification: a top-level
 * `openapi` or `swagger` key near the start. Cheap, so every command can decide before loading.
 */
export function looksLikeOpenApi(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^(?:openapi|swagger)\s*:/m.test(head) || /^\s*\{[\s\S]*?"(?:openapi|swagger)"\s*:/.test(head);
}
