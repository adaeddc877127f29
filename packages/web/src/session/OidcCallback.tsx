import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from '../app/router';
import { PageTitle } from '../app/Shell';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useI18n } from '../i18n/I18nProvider';
import { safeReturnPath, signInPath } from './return-path';
import { useSessionStore } from './SessionProvider';
import { failureText, oidcRedirectUri } from './SignInForm';

/**
 * Where the provider sends the person back (`/_/oidc-callback?code=…&state=…`): the code is exchanged
 * for tokens, then the person goes back to where they started signing in, and the code leaves the
 * address bar and the history.
 */
export function OidcCallback() {
  const { model } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const store = useSessionStore();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | undefined>();
  useDocumentTitle(failure === undefined ? t('session.callbackTitle') : t('session.callbackFailed'));

  const { search } = useLocation();

  useEffect(() => {
    let current = true;
    // The callback address as the provider was told it, with the code and state it added.
    const redirectUri = oidcRedirectUri();
    const here = new URL(redirectUri);
    here.search = search;
    store
      .completeOidc(here, redirectUri)
      .then((returnTo) => {
        if (current) void navigate(safeReturnPath(returnTo) ?? '/', { replace: true });
      })
      .catch((error: unknown) => {
        if (current) setFailure(failureText(i18n, error));
      });
    return () => {
      current = false;
    };
  }, [store, navigate, i18n, search]);

  if (failure === undefined) return <Text c="dimmed">{t('session.callbackTitle')}</Text>;
  return (
    <Stack gap="md" maw={560}>
      <PageTitle>{t('session.callbackFailed')}</PageTitle>
      <Alert color="red" role="alert">
        {failure}
      </Alert>
      <Anchor component={Link} to={signInPath(model)} replace>
        {t('session.backToSignIn')}
      </Anchor>
    </Stack>
  );
}
