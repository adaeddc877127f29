import { Button, Notification, Stack } from '@mantine/core';
import { addEnglish } from '../i18n/catalogue';
import { feedback } from '../i18n/en/feedback';
import { useI18n } from '../i18n/I18nProvider';
import { dismiss, type Notice } from './feedback-store';

addEnglish('feedback', feedback);

/** The notices, newest last, each with its action (Undo) and a close button. */
export default function FeedbackList({ notices }: { notices: readonly Notice[] }) {
  const { t } = useI18n();
  return (
    <Stack gap="xs">
      {notices.map((notice) => (
        <Notification
          key={notice.id}
          color={notice.tone === 'failed' ? 'red' : 'green'}
          withBorder
          // A failure interrupts; anything else waits its turn (Mantine says `alert` for every notice).
          role={notice.tone === 'failed' ? 'alert' : 'status'}
          onClose={() => dismiss(notice.id)}
          closeButtonProps={{ 'aria-label': t('feedback.dismiss') }}
        >
          <span className="nf-feedback-line">
            <span>{notice.message}</span>
            {notice.action ? (
              <Button size="compact-sm" variant="light" onClick={notice.action.run}>
                {notice.action.label}
              </Button>
            ) : null}
          </span>
        </Notification>
      ))}
    </Stack>
  );
}
