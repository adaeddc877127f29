import { PASSWORD_PAGE_PATH } from '@ninefold/model';
import type { ReactNode } from 'react';
import { FORGOT_PASSWORD_PATH, PEOPLE_PAGE_PATH } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { ForgotPasswordPage, SetPasswordPage } from './PasswordPages';
import PeoplePage from './PeoplePage';

/**
 * Managing people where the API keeps them (`api.accounts`), and the password pages where it keeps
 * passwords (`api.auth.password`); elsewhere `fallback`, the screen of point 2 at that address if any.
 * One chunk for the three, loaded by those who open one: none is on a first visit's way.
 */
export default function PeopleRoutes({ path, fallback }: { path: string; fallback: ReactNode }) {
  const { api } = useSpec();
  if (path === PEOPLE_PAGE_PATH && api.accounts) return <PeoplePage accounts={api.accounts} />;
  if (path === PASSWORD_PAGE_PATH && api.auth?.password) return <SetPasswordPage path={api.auth.password} />;
  if (path === FORGOT_PASSWORD_PATH && api.auth?.passwordReset) {
    return <ForgotPasswordPage path={api.auth.passwordReset} />;
  }
  return fallback;
}
