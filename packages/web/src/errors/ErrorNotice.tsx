import { Alert, Button, Stack, Text } from '@mantine/core';
import { exhaustiveSwitchError } from '@ninefold/model';
import type { ReactNode, Ref } from 'react';
import { useGoBack } from '../app/router';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { useSessionStore } from '../session/SessionProvider';
import type { ErrorView } from './error-view';
import { useErrorView } from './useErrorView';

export interface ErrorNoticeProps {
  /** What failed: an `ApiError`, a `NetworkError`, or anything else (shown as a fault of the page). */
  error: unknown;
  /** The entity the call was about, for entries that name a field. */
  entity?: string;
  /** What did not happen, in the place's words: "The list could not be loaded". */
  title?: string;
  /** Offered when the action is `retry`; without it no retry is offered. */
  onRetry?: () => void;
  retrying?: boolean;
  /** Reads the data again for the action `reload`; without it, the page is loaded again. */
  onReload?: () => void;
  /** Moves to the field for the action `fix-field`, given its pointer; without it the action is not offered. */
  onFixField?: (pointer: string | undefined) => void;
  /** Where "go back" leads when the page was opened directly, with no page before it in the tab. */
  backTo?: string;
  /** The words for a network failure here, when the generic ones would not say enough (a save, a step). */
  networkMessage?: string;
  /** Below the message: what the place adds (a list of problems, a link). */
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}

/**
 * A failed call, shown as the error catalogue (point 8) says: its message and the one action it names
 * (try again, sign in, go back, go to the field, reload). A failure the catalogue does not cover gets
 * generic words and a reference to quote, and a refusal the API explained keeps that explanation; a
 * raw body or a stack is never shown, nor a server error's text unless it reads as a sentence for people
 * (see `errorView`).
 */
export function ErrorNotice(props: ErrorNoticeProps) {
  const { error, entity, title, networkMessage, children, ref } = props;
  const i18n = useI18n();
  const view = useErrorView(error, entity);
  if (!view) return null;
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color={view.generic === 'busy' ? 'yellow' : 'red'}
      title={title}
      role="alert"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(view, i18n, networkMessage)}</Text>
        {view.detail && view.detail !== view.message ? (
          <Text size="sm" c="dimmed">
            {view.detail}
          </Text>
        ) : null}
        {children}
        {view.reference ? (
          <Text size="xs" c="dimmed">
            {i18n.t('errors.reference', { reference: view.reference })}
          </Text>
        ) : null}
        <ErrorActionButton view={view} {...props} />
      </Stack>
    </Alert>
  );
}

/** The message of a failure: the catalogue's, else the client's words for its kind. */
export function errorMessage(
  view: ErrorView,
  { t, tn }: Pick<ReturnType<typeof useI18n>, 't' | 'tn'>,
  networkMessage?: string,
): string {
  if (view.message !== undefined) return view.message;
  if (view.generic === 'network' && networkMessage) return networkMessage;
  if (view.generic === 'busy' && view.retryAfterSeconds !== undefined && view.retryAfterSeconds > 0) {
    return tn('errors.busyFor', view.retryAfterSeconds);
  }
  return t(`errors.${view.generic}`);
}

function ErrorActionButton({
  view,
  onRetry,
  retrying,
  onReload,
  onFixField,
  backTo,
}: ErrorNoticeProps & { view: ErrorView }) {
  const { t } = useI18n();
  const { state } = useSession();
  const goBack = useGoBack();
  const button = (label: string, onClick: () => void, loading = false) => (
    <Button size="xs" variant="default" onClick={onClick} loading={loading}>
      {label}
    </Button>
  );
  // Many APIs answer 403, not 401, to someone who has not signed in (Directus): signing in is what helps.
  if (view.generic === 'forbidden' && state.status === 'signed-out') return <SignInButton />;
  switch (view.action) {
    case 'retry':
      return onRetry ? button(t('errors.retry'), onRetry, retrying) : null;
    case 'sign-in':
      // Only someone signed out can be asked to sign in; the dialog keeps the page and what was typed.
      return state.status === 'signed-out' ? <SignInButton /> : null;
    case 'go-back':
      return button(t('errors.goBack'), () => goBack(backTo ?? '/'));
    case 'fix-field':
      return onFixField ? button(t('errors.fixField'), () => onFixField(view.field)) : null;
    case 'reload':
      return button(t('errors.reload'), onReload ?? (() => window.location.reload()));
    case 'contact-support':
    case 'none':
      return null;
    default:
      return exhaustiveSwitchError(view.action);
  }
}

/** Opens the sign-in dialog over the page (rendered only where a session can be signed in to). */
function SignInButton() {
  const { t } = useI18n();
  const store = useSessionStore();
  return (
    <Button size="xs" variant="default" onClick={() => store.openPrompt()}>
      {t('errors.signInAction')}
    </Button>
  );
}
