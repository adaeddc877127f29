import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from '../app/router';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useI18n } from '../i18n/I18nProvider';
import { signInAddress, signInOf } from '../session/return-path';

/**
 * A page the person's role may not see, in place of the screen: a plain statement of why, and, for
 * someone not signed in, the way to sign in and come back here.
 */
export function NotAllowed({ reason, signIn = false }: { reason: string; signIn?: boolean }) {
  const { model } = useSpec();
  const { t } = useI18n();
  const location = useLocation();
  const title = t('access.notAllowedTitle');
  useDocumentTitle(title);
  // Without a sign-in of point 6 there is nowhere to send the person.
  const to =
    signIn && signInOf(model).kind !== 'none'
      ? signInAddress(model, `${location.pathname}${location.search}`)
      : undefined;
  return (
    <Stack gap="md" maw={760}>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert color="yellow">
        <Text>{reason}</Text>
      </Alert>
      {to ? (
        <div>
          <Button component={Link} to={to}>
            {t('access.signIn')}
          </Button>
        </div>
      ) : null}
    </Stack>
  );
}
