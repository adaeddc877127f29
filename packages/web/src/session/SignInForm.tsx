import { Alert, Anchor, Button, Divider, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { exhaustiveSwitchError } from '@ninefold/model';
import { type FormEvent, useRef, useState } from 'react';
import { clientUrl } from '../app/base-path';
import { Link } from '../app/router';
import { FORGOT_PASSWORD_PATH, OIDC_CALLBACK_PATH } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { addEnglish } from '../i18n/catalogue';
import { people as peopleMessages } from '../i18n/en/people';
import { type I18n, useI18n } from '../i18n/I18nProvider';
import { cannotSend } from './credentials';
import { useSessionStore } from './SessionProvider';
import { type OidcSignIn, SignInError } from './session-store';

// Its link to a reset is worded with the people pages, which are loaded with it only where it shows.
addEnglish('people', peopleMessages);
export interface SignInFormProps {
  /** After a successful sign-in. */
  onSignedIn(): void;
  /** The email to start with, e.g. of the person whose session ended. */
  initialEmail?: string;
  /** Where a provider's sign-in comes back to (oidc, oauth2): a path of this client. */
  returnTo: string;
  /** In the dialog over a page: leaving for a provider loses that page, which it says. */
  overPage?: boolean;
}

/** The sign-in the specification names (point 6): a form, a key, or a provider's button. */
export function SignInForm(props: SignInFormProps) {
  const store = useSessionStore();
  const { signIn } = store;
  const { api } = useSpec();
  const { t } = useI18n();
  switch (signIn.kind) {
    case 'none':
      return <Alert color="blue">{t('session.noSignIn')}</Alert>;
    case 'password':
    case 'basic':
      return <PasswordForm {...props} basic={signIn.kind === 'basic'} />;
    case 'api-key': {
      const refused = cannotSend(signIn, api.base);
      if (refused) return <Alert color="yellow">{unavailableText(t, refused, signIn.name)}</Alert>;
      return <SecretForm {...props} label={t('session.apiKey')} submit={store.signInWithApiKey} />;
    }
    case 'token':
      return <SecretForm {...props} label={t('session.accessToken')} submit={store.signInWithToken} />;
    case 'oidc':
    case 'oauth2':
      // The provider's page may be out of reach (no client id, another network): a token always works.
      return (
        <Stack gap="lg">
          <ProviderSignIn {...props} signIn={signIn} />
          <Divider label={t('session.orPasteToken')} labelPosition="left" />
          <SecretForm {...props} label={t('session.accessToken')} submit={store.signInWithToken} />
        </Stack>
      );
    default:
      return exhaustiveSwitchError(signIn);
  }
}

/** An email (or user name) and a password: the sign-in call, or HTTP basic. */
function PasswordForm({ onSignedIn, initialEmail, basic }: SignInFormProps & { basic: boolean }) {
  const store = useSessionStore();
  const { api } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const [email, setEmail] = useState(initialEmail ?? '');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFailure(undefined);
    try {
      if (basic) await store.signInWithBasic(email, password);
      else await store.signInWithPassword(email, password);
      setPending(false);
      onSignedIn();
    } catch (error) {
      // The email stays as typed; the password is asked again.
      setFailure(failureText(i18n, error));
      setPassword('');
      setPending(false);
      passwordRef.current?.focus();
    }
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <FailureAlert text={failure} />
        <TextInput
          label={basic ? t('session.userName') : t('session.email')}
          type={basic ? 'text' : 'email'}
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <PasswordInput
          ref={passwordRef}
          label={t('session.password')}
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Group justify="space-between" gap="sm">
          <Button type="submit" loading={pending}>
            {t('session.submit')}
          </Button>
          {api.auth?.passwordReset ? (
            <Anchor component={Link} to={FORGOT_PASSWORD_PATH} size="sm">
              {t('people.forgot')}
            </Anchor>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}

/**
 * A secret the person pastes: an API key, sent in the header or cookie the specification names, or an
 * access token, sent as a bearer token.
 */
function SecretForm({
  onSignedIn,
  label,
  submit: signInWith,
}: SignInFormProps & { label: string; submit(secret: string): Promise<void> }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [key, setKey] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFailure(undefined);
    try {
      await signInWith(key.trim());
      setPending(false);
      onSignedIn();
    } catch (error) {
      setFailure(failureText(i18n, error));
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <FailureAlert text={failure} />
        <PasswordInput
          label={label}
          autoComplete="off"
          required
          value={key}
          onChange={(event) => setKey(event.currentTarget.value)}
        />
        <div>
          <Button type="submit" loading={pending}>
            {t('session.submit')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

/** OpenID Connect or OAuth2: the provider's own page, by the authorization code flow with PKCE. */
function ProviderSignIn({ signIn, returnTo, overPage }: SignInFormProps & { signIn: OidcSignIn }) {
  const store = useSessionStore();
  const i18n = useI18n();
  const { t } = i18n;
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const host = hostOf(signIn.kind === 'oidc' ? signIn.issuer : signIn.authorizationUrl);
  // Documents never name the client: without one from the specification or the command, the person
  // types the id their provider gave, kept for the tab like the rest of the sign-in.
  const asks = signIn.clientId === undefined || signIn.clientId === '';
  const [clientId, setClientId] = useState(() => (asks ? keptClientId() : ''));

  const start = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setFailure(undefined);
    try {
      if (asks) keepClientId(clientId.trim());
      await store.startOidc({
        redirectUri: oidcRedirectUri(),
        returnTo,
        ...(asks ? { clientId: clientId.trim() } : {}),
      });
    } catch (error) {
      setFailure(failureText(i18n, error));
      setPending(false);
    }
  };

  return (
    <form onSubmit={start}>
      <Stack gap="sm">
        <FailureAlert text={failure} />
        {overPage ? <Text size="sm">{t('session.leavesPage', { host })}</Text> : null}
        {asks ? (
          <TextInput
            label={t('session.clientId')}
            description={t('session.clientIdHelp', { host })}
            autoComplete="off"
            spellCheck={false}
            required
            value={clientId}
            onChange={(event) => setClientId(event.currentTarget.value)}
          />
        ) : null}
        <div>
          <Button type="submit" loading={pending}>
            {t('session.withProvider', { host })}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

const CLIENT_ID_KEY = 'ninefold.oauth.client-id';

function keptClientId(): string {
  try {
    return sessionStorage.getItem(CLIENT_ID_KEY) ?? '';
  } catch {
    return '';
  }
}

function keepClientId(id: string): void {
  try {
    sessionStorage.setItem(CLIENT_ID_KEY, id);
  } catch {
    // Without session storage the id is typed again next time; the sign-in itself says why it fails.
  }
}

function FailureAlert({ text }: { text: string | undefined }) {
  const { t } = useI18n();
  if (text === undefined) return null;
  return (
    <Alert color="red" title={t('session.failedTitle')} role="alert">
      {text}
    </Alert>
  );
}

/** The address the provider sends the person back to, below the path the client is served under. */
export function oidcRedirectUri(): string {
  return clientUrl(OIDC_CALLBACK_PATH);
}

/** Why signing in did not work, in the person's language, with the server's own words where it gave some. */
export function failureText({ t, tn }: Pick<I18n, 't' | 'tn'>, error: unknown): string {
  if (!(error instanceof SignInError)) return t('session.rejected');
  switch (error.reason) {
    case 'rejected':
      return error.detail ?? t('session.rejected');
    case 'too-many':
      return error.retryAfter === undefined
        ? t('session.tooManyNoTime')
        : tn('session.tooMany', error.retryAfter);
    case 'network':
      return t('session.network');
    case 'unreadable':
      return t('session.unreadable');
    case 'unavailable':
      return unavailableText(t, error.unavailable ?? 'wrong-kind', '');
    default:
      return exhaustiveSwitchError(error.reason);
  }
}

function unavailableText(
  t: I18n['t'],
  why: NonNullable<SignInError['unavailable']>,
  keyName: string,
): string {
  switch (why) {
    case 'key-in-query':
      return t('session.keyInQuery');
    case 'bad-key-name':
      return t('session.badKeyName', { name: keyName });
    case 'cookie-elsewhere':
      return t('session.cookieElsewhere');
    case 'no-sign-in-call':
      return t('session.noSignInCall');
    case 'wrong-kind':
      return t('session.wrongKind');
    default:
      return exhaustiveSwitchError(why);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
