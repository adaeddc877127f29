import type { LoadResult } from '@ninefold/model';
import type { DevIssue } from '@ninefold/server';

/** A load's issues as the page shows them in `ninefold dev`, each with its `file:line:column`. */
export function devIssues(result: Pick<LoadResult, 'issues'>, file: string): DevIssue[] {
  return result.issues.map((issue) => ({
    severity: issue.severity,
    message: issue.hint ? `${issue.message} (${issue.hint})` : issue.message,
    source: issue.source ? `${issue.source.file}:${issue.source.line}:${issue.source.column}` : file,
    code: issue.code,
  }));
}
