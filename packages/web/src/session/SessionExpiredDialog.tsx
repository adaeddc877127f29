import { Modal, Stack, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { useSpec } from '../app/SpecContext';
import { useI18n } from '../i18n/I18nProvider';
import { isSignInAddress } from './return-path';
import { useSessionSnapshot, useSessionStore } from './SessionProvider';
import { SignInForm } from './SignInForm';

/**
 * Signing in again over the current page when the API answered 401: the page stays mounted behind the
 * dialog, so a half-filled form keeps every value and can be saved once the person is back. The dialog
 * is a modal (focus stays inside, labelled by its title); closing it leaves the page as it is, and the
 * header's "Sign in" opens it again.
 */
export function SessionExpiredDialog() {
  const { model } = useSpec();
  const { t } = useI18n();
  const store = useSessionStore();
  const { state, prompt, lastEmail } = useSessionSnapshot();
  const location = useLocation();
  const expired = state.status === 'signed-out' && state.expired;
  const opened = prompt && state.status === 'signed-out' && !isSignInAddress(model, location.pathname);
  const here = `${location.pathname}${location.search}${location.hash}`;
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
