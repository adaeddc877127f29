import type { ApiDescription, Model } from '@ninefold/model';
import { createHttpDataProvider } from '../data/http-data-provider';
import { createSessionStore } from '../session/session-store';

/**
 * The session and the data layer of a client, wired together: every request asks the session for its
 * credentials and tells it of every 401. The served page (main.tsx) and `<NinefoldApp>` both start so.
 */
export function connect(model: Model, api: ApiDescription) {
  const session = createSessionStore(model, api);
  const data = createHttpDataProvider(api, model, {
    authHeaders: session.authHeaders,
    onUnauthorized: session.unauthorized,
  });
  return { session, data };
}
