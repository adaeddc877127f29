import { lazy, Suspense, useState } from 'react';
import { withLaterStyles } from '../app/later-styles';
import { useLocation } from '../app/router';
import { useSpec } from '../app/SpecContext';
import { isSignInAddress } from './return-path';
import { useSessionSnapshot } from './SessionProvider';

// The dialog, its modal and the sign-in form load the first time they are needed: most visits never
// see them, and they were a tenth of every first load.
const ExpiredModal = lazy(
  withLaterStyles(() =>
    import('./SessionExpiredModal').then((module) => ({ default: module.SessionExpiredModal })),
  ),
);

/**
 * Signing in again over the current page when the API answered 401: the page stays mounted behind the
 * dialog, so a half-filled form keeps every value and can be saved once the person is back. The dialog
 * is a modal (focus stays inside, labelled by its title); closing it leaves the page as it is, and the
 * header's "Sign in" opens it again.
 */
export function SessionExpiredDialog() {
  const { model } = useSpec();
  const { state, prompt } = useSessionSnapshot();
  const location = useLocation();
  const opened = prompt && state.status === 'signed-out' && !isSignInAddress(model, location.pathname);
  // Once loaded it stays mounted, so that the modal can play its closing transition.
  const [wanted, setWanted] = useState(false);
  if (opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ExpiredModal opened={opened} />
    </Suspense>
  );
}
