import { lazy, Suspense, useSyncExternalStore } from 'react';
import { withLaterStyles } from '../app/later-styles';
import { currentNotices, subscribeNotices } from './feedback-store';

// The notices' code and styles come with the first notice, not with every first page.
const FeedbackList = lazy(withLaterStyles(() => import('./FeedbackList')));

/**
 * Where notices appear, at the bottom of the window: a polite live region that is always there, so that
 * a screen reader says each notice as it arrives.
 */
export function FeedbackHost() {
  const notices = useSyncExternalStore(subscribeNotices, currentNotices, currentNotices);
  return (
    <div className="nf-feedback" aria-live="polite">
      {notices.length > 0 ? (
        <Suspense fallback={null}>
          <FeedbackList notices={notices} />
        </Suspense>
      ) : null}
    </div>
  );
}
