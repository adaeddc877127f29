import type { Issue, PathSegment } from '@ninefold/model';
import type { ReportBuilder } from '../import-report';
import type { OpenApi3Like } from './document';

/** What every mapping step shares: the document, the report being written and the issues found. */
export interface MapContext {
  doc: OpenApi3Like;
  file: string;
  report: ReportBuilder;
  issues: Issue[];
  /** The OAuth2 or OpenID Connect client id given at import (`--client-id`). */
  clientId?: string;
  /** The security scheme the person chose to sign in with (`--sign-in`), over the one the import picks. */
  signInScheme?: string;
}

/** A warning about the source document, with its path (a JSON pointer's segments) into that document. */
export function warn(context: MapContext, code: Issue['code'], path: PathSegment[], message: string): void {
  context.issues.push({ code, severity: 'warning', message, path });
}

/**
 * Runs one step of the mapping; an exception (a bug, or input shaped beyond what the step expected)
 * becomes an error issue for that part of the document, and the rest of the document still maps.
 */
export function guarded<T>(
  context: MapContext,
  path: PathSegment[],
  what: string,
  step: () => T,
): T | undefined {
  try {
    return step();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    context.issues.push({
      code: 'invalid-value',
      severity: 'error',
      message: `Could not map ${what}: ${reason}. It is left out; the rest of the document is mapped.`,
      path,
    });
    return undefined;
  }
}
