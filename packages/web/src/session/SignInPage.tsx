import { Alert, Stack } from '@mantine/core';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from '../app/router';
import { PageTitle } from '../app/Shell';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useI18n } from '../i18n/I18nProvider';
import { safeReturnPath } from './return-path';
import { useSession } from './SessionContext';
import { useSessionStore } from './SessionProvider';
import { SignInForm } from './SignInForm';

/**
 * The sign-in page: point 2's sign-in screen, or the built-in `/_/sign-in`. After signing in it goes to
 * the `next` address (a path of this client only, see `safeReturnPath`), else home.
 */
export function SignInPage({ title }: { title?: string }) {
  const { t } = useI18n();
  const heading = title ?? t('session.signInTitle');
  useDocumentTitle(heading);
  const store = useSessionStore();
  const { state } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // `return` is what the permission screens' refusal page writes; `next` what the shell does.
  const next = safeReturnPath(search.get('next') ?? search.get('return')) ?? '/';

  // This page is the answer to any earlier request to sign in: no dialog over it.
  useEffect(() => store.dismissPrompt(), [store]);

  const who = state.status === 'signed-in' ? (state.user.email ?? state.user.id) : undefined;
  return (
    <Stack gap="md" maw={420}>
      <PageTitle>{heading}</PageTitle>
      {who !== undefined ? <Alert color="blue">{t('session.alreadySignedIn', { name: who })}</Alert> : null}
      <SignInForm returnTo={next} onSignedIn={() => void navigate(next, { replace: true })} />
    </Stack>
  );
}
