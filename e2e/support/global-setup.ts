// Before the browser tests start: the real API servers' installs (issue 39) begin in the background, so
// that their minutes of downloading overlap other tests instead of holding up the one that needs them,
// which waits for them then (installServer). A failed install here is tried again by that test.
import { installServer } from './real-servers';

export default function setup(): void {
  for (const name of ['platformatic', 'directus'] as const)
    installServer(name).catch((error: Error) =>
      console.warn(
        `the ${name} server's install in the background failed; its test will try again: ${error.message}`,
      ),
    );
}
