import { Badge, Button, Group, Text } from '@mantine/core';
import { exhaustiveSwitchError, type Model } from '@ninefold/model';
import { useState } from 'react';
import { Link, useLocation } from '../app/router';
import { useSpec } from '../app/SpecContext';
import { useI18n } from '../i18n/I18nProvider';
import { isSignInAddress, signInAddress } from './return-path';
import { useSession } from './SessionContext';
import { useSessionStore, useSignOut } from './SessionProvider';

/**
 * The session in the header: who is signed in, in which role, and sign-out; or the way to sign in.
 * Nothing when the specification names no sign-in.
 */
export function SessionHeader() {
  const { model } = useSpec();
  const { t } = useI18n();
  const { state } = useSession();
  const store = useSessionStore();
  const signOut = useSignOut();
  const location = useLocation();
  const [leaving, setLeaving] = useState(false);
  switch (state.status) {
    case 'none':
      return null;
    case 'signed-in': {
      const who = state.user.email ?? state.user.id ?? t('session.signedIn');
      const role =
        state.user.role === undefined ? t('session.roleUnknown') : roleLabel(model, state.user.role);
      return (
        <Group gap="xs" wrap="nowrap" role="group" aria-label={t('session.session')}>
          {/* On a phone the header keeps room for signing out, the language and the theme. */}
          <Text size="sm" truncate="end" maw={240} title={who} visibleFrom="sm">
            {who}
          </Text>
          <Badge variant="light" tt="none" data-testid="session-role" visibleFrom="sm">
            {role}
          </Badge>
          {/* On a phone the button is its icon, so that a longer language ("Se déconnecter") still
              leaves the header room; its name stays the words. */}
          <Button
            size="xs"
            variant="default"
            className="nf-sign-out"
            aria-label={t('session.signOut')}
            loading={leaving}
            onClick={() => {
              setLeaving(true);
              void signOut().finally(() => setLeaving(false));
            }}
          >
            <svg className="nf-sign-out-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
              <path
                d="M6 2H3v12h3M10 4.5 13.5 8 10 11.5M13.5 8H6"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.5"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            <span className="nf-sign-out-text">{t('session.signOut')}</span>
          </Button>
        </Group>
      );
    }
    case 'signed-out': {
      // After a session ended mid-work, signing in happens over the page, never by leaving it.
      if (state.expired) {
        return (
          <Button size="xs" onClick={store.openPrompt}>
            {t('session.signIn')}
          </Button>
        );
      }
      if (isSignInAddress(model, location.pathname)) return null;
      const here = `${location.pathname}${location.search}`;
      return (
        <Button size="xs" component={Link} to={signInAddress(model, here)}>
          {t('session.signIn')}
        </Button>
      );
    }
    default:
      return exhaustiveSwitchError(state);
  }
}

/** A role's label from point 6, else its name. */
export function roleLabel(model: Model, role: string): string {
  const found = model.roles.shown
    ? model.roles.roles.find((candidate) => candidate.name === role)
    : undefined;
  return found?.label ?? role;
}
