import { List } from '@mantine/core';
import { useI18n } from '../i18n/I18nProvider';

/** A specification's or a document's issue as a page lists it: where, how bad, what. */
export interface ShownIssue {
  severity: 'error' | 'warning';
  message: string;
  /** `file:line:column`, when the issue has a place. */
  source?: string;
}

/** Issues as a list, one line each; shared by `ninefold dev`'s banner and the import page. */
export function IssueItems({ issues, label }: { issues: readonly ShownIssue[]; label?: string }) {
  const { t } = useI18n();
  return (
    // A compiler's message has long unbroken words (`ComponentType<FieldDisplayOverrideProps>`, a path):
    // they break anywhere rather than run past a phone's edge.
    <List size="sm" aria-label={label} style={{ overflowWrap: 'anywhere' }}>
      {issues.map((issue, index) => (
        // Issues have no identity of their own; their order is fixed once shown.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <List.Item key={index}>
          {issue.source ? <code>{issue.source}</code> : null}{' '}
          {issue.severity === 'error' ? t('shell.severityError') : t('shell.severityWarning')}:{' '}
          {issue.message}
        </List.Item>
      ))}
    </List>
  );
}
