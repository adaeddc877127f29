import { Text } from '@mantine/core';
import type { Issue } from '@ninefold/model';

/** The last check's issues as a list: where (line and column), what, and the hint. */
export function IssueList({ issues }: { issues: readonly Issue[] }) {
  if (issues.length === 0) return null;
  return (
    <ol className="nf-playground-issues" aria-label="Issues in the text">
      {issues.slice(0, MAX_LISTED).map((issue) => (
        <li
          key={`${issue.code}:${issue.source?.line}:${issue.source?.column}:${issue.message}`}
          data-severity={issue.severity}
        >
          <Text size="sm" component="span" fw={600}>
            {issue.source ? `Line ${issue.source.line}, column ${issue.source.column}` : 'Whole text'}
            {issue.severity === 'error' ? ' (error)' : ' (warning)'}:
          </Text>{' '}
          <Text size="sm" component="span">
            {issue.message}
          </Text>
          {issue.hint ? (
            <Text size="xs" c="dimmed">
              {issue.hint}
            </Text>
          ) : null}
        </li>
      ))}
      {issues.length > MAX_LISTED ? (
        <li>
          <Text size="sm" c="dimmed">
            and {issues.length - MAX_LISTED} more, marked in the text.
          </Text>
        </li>
      ) : null}
    </ol>
  );
}

/** A broken import can have thousands; the editor marks every one, the list names the first. */
const MAX_LISTED = 50;
