import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordError } from '@ninefold/model';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate } from '../app/router';
import { FORGOT_PASSWORD_PATH } from '../app/routes';
import { PageTitle } from '../app/Shell';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { ApiError } from '../data/data-provider';
import { notify } from '../feedback/feedback-store';
import { addEnglish } from '../i18n/catalogue';
import { people as peopleMessages } from '../i18n/en/people';
import { useI18n } from '../i18n/I18nProvider';
import { signInPath } from '../session/return-path';
import { askPasswordReset, linkFromHash, setPassword } from './accounts';

addEnglish('people', peopleMessages);

/**
 * Asks for a link to reset one's password. The answer is the same whether or not the email has an
 * account, and so is what this page says.
 */
export function ForgotPasswordPage({ path }: { path: string }) {
  const { api, model } = useSpec();
  const { t } = useI18n();
  useDocumentTitle(t('people.forgotHeading'));
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFailure(undefined);
    try {
      await askPasswordReset(api.base, path, email.trim(), {});
      setSent(email.trim());
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack gap="md" maw={420}>
      <PageTitle>{t('people.forgotHeading')}</PageTitle>
      {sent === undefined ? (
        <form onSubmit={submit}>
          <Stack gap="sm">
            <Text size="sm">{t('people.forgotIntro')}</Text>
            {failure ? (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            ) : null}
            <TextInput
              label={t('people.email')}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <div>
              <Button type="submit" loading={pending}>
                {t('people.send')}
              </Button>
            </div>
          </Stack>
        </form>
      ) : (
        <Alert color="blue" role="status">
          {t('people.sent', { email: sent })}
        </Alert>
      )}
      <Anchor component={Link} to={signInPath(model)} size="sm">
        {t('people.backToSignIn')}
      </Anchor>
    </Stack>
  );
}

/**
 * Sets a password with a link's token: accepting an invitation, or a reset. The token is read from the
 * address's fragment and taken out of the address and the history at once, so that it is not left in a
 * bookmark, a shared screen or the back button.
 */
export function SetPasswordPage({ path }: { path: string }) {
  const { api, model } = useSpec();
  const { t } = useI18n();
  const navigate = useNavigate();
  const [link] = useState(() => linkFromHash(window.location.hash));
  useEffect(() => {
    if (window.location.hash) {
      window.history.replaceState(
        window.history.state,
        '',
        window.location.pathname + window.location.search,
      );
    }
  }, []);
  const heading =
    link?.purpose === 'invitation' ? t('people.invitationHeading') : t('people.passwordHeading');
  useDocumentTitle(heading);
  const [password, setNew] = useState('');
  const [repeat, setRepeat] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ text: string; expired: boolean } | undefined>(undefined);
  // Once sent, the fields say what is wrong even if left empty; before, only once typed in.
  const [tried, setTried] = useState(false);
  // The core's rule, which the API runs on the same password: worded here in the person's language.
  const weak = passwordError(password);
  const weakText =
    (password !== '' || tried) && weak
      ? weak.code === 'max'
        ? t('people.tooLong', { max: PASSWORD_MAX_LENGTH })
        : t('people.passwordIntro', { min: PASSWORD_MIN_LENGTH })
      : undefined;
  const mismatch = (repeat !== '' || tried) && repeat !== password;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (pending || !link || weak || password !== repeat) return;
    setPending(true);
    setFailure(undefined);
    try {
      await setPassword(api.base, path, link.token, password, {});
      notify({ message: t('people.passwordSet'), tone: 'done' });
      void navigate(signInPath(model), { replace: true });
    } catch (error) {
      const expired = error instanceof ApiError && error.code === 'LINK_NOT_VALID';
      setFailure({ text: error instanceof Error ? error.message : String(error), expired });
      setPending(false);
    }
  };
  return (
    <Stack gap="md" maw={420}>
      <PageTitle>{heading}</PageTitle>
      {link === undefined ? (
        <Alert color="yellow" role="alert">
          <Stack gap="xs" align="start">
            <Text size="sm">{t('people.noToken')}</Text>
            <Anchor component={Link} to={FORGOT_PASSWORD_PATH} size="sm">
              {t('people.askAgain')}
            </Anchor>
          </Stack>
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('people.passwordIntro', { min: PASSWORD_MIN_LENGTH })}</Text>
            {failure ? (
              <Alert color="red" role="alert">
                <Stack gap="xs" align="start">
                  <Text size="sm">{failure.text}</Text>
                  {failure.expired ? (
                    <Anchor component={Link} to={FORGOT_PASSWORD_PATH} size="sm">
                      {t('people.askAgain')}
                    </Anchor>
                  ) : null}
                </Stack>
              </Alert>
            ) : null}
            <PasswordInput
              label={t('people.newPassword')}
              autoComplete="new-password"
              required
              value={password}
              onChange={(event) => setNew(event.currentTarget.value)}
              error={weakText}
              // Mantine marks its inner input only with data-invalid: screen readers are told here.
              aria-invalid={weakText !== undefined}
            />
            <PasswordInput
              label={t('people.repeat')}
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(event) => setRepeat(event.currentTarget.value)}
              error={mismatch ? t('people.mismatch') : undefined}
              aria-invalid={mismatch}
            />
            <div>
              <Button type="submit" loading={pending}>
                {t('people.setPassword')}
              </Button>
            </div>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
