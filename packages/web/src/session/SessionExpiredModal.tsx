import { Modal, Stack, Text } from '@mantine/core';
import { useLocation } from '../app/router';
import { useI18n } from '../i18n/I18nProvider';
import { useSessionSnapshot, useSessionStore } from './SessionProvider';
import { SignInForm } from './SignInForm';

/** The dialog of `SessionExpiredDialog`, loaded when it is first opened. */
export function SessionExpiredModal({ opened }: { opened: boolean }) {
  const { t } = useI18n();
  const store = useSessionStore();
  const { state, lastEmail } = useSessionSnapshot();
  const location = useLocation();
  const expired = state.status === 'signed-out' && state.expired;
  const here = `${location.pathname}${location.search}`;
  return (
    <Modal
      opened={opened}
      onClose={store.dismissPrompt}
      title={expired ? t('session.expiredTitle') : t('session.needSignInTitle')}
      closeButtonProps={{ 'aria-label': t('session.close') }}
      centered
    >
      <Stack gap="md">
        <Text size="sm">{expired ? t('session.expiredText') : t('session.needSignInText')}</Text>
        <SignInForm
          overPage
          returnTo={here}
          onSignedIn={() => {}}
          {...(lastEmail === undefined ? {} : { initialEmail: lastEmail })}
        />
      </Stack>
    </Modal>
  );
}
