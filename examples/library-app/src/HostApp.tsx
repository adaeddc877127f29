import { NinefoldApp } from '@ninefold/react';
import { useSyncExternalStore } from 'react';
// The specification, read and checked at build by the plugin (vite.config.ts): an error in it stops the build.
import shop from '../../shop.md?ninefold';
// The same extension module `npm start` runs with `--ui`: widgets, a printable screen, actions, brand.
import shopUi from '../../shop-ui/index';

/** Where the generated client lives in this app's addresses. */
const ADMIN = '/admin';

/**
 * The team's own app: its header and its home page, and the generated shop client below /admin. The
 * app needs no router for this; the client brings its own below its base.
 */
export function HostApp() {
  const path = useSyncExternalStore(onNavigate, () => window.location.pathname);
  const inAdmin = path === ADMIN || path.startsWith(`${ADMIN}/`);
  return (
    <div className="host">
      <header className="host-header">
        <strong>Harbor Supply</strong>
        <nav aria-label="Harbor Supply">
          <a href="/" aria-current={inAdmin ? undefined : 'page'}>
            Home
          </a>
          <a href={ADMIN} aria-current={inAdmin ? 'page' : undefined}>
            Shop admin
          </a>
        </nav>
      </header>
      <div className="host-body">
        {inAdmin ? (
          <NinefoldApp {...shop} extensions={shopUi} basename={ADMIN} />
        ) : (
          <main className="host-home">
            <h1>Harbor Supply back office</h1>
            <p>
              This page is the team's own React app. The shop admin is the client Ninefold generates from{' '}
              <code>examples/shop.md</code>, mounted with <code>&lt;NinefoldApp&gt;</code>.
            </p>
            <p>
              <a href={ADMIN}>Open the shop admin</a>
            </p>
          </main>
        )}
      </div>
    </div>
  );
}

/** Calls back when the address changes: the client's own navigation, and the browser's back and forward. */
function onNavigate(callback: () => void): () => void {
  const events = ['popstate', 'pushState', 'replaceState'];
  for (const event of events) window.addEventListener(event, callback);
  return () => {
    for (const event of events) window.removeEventListener(event, callback);
  };
}
