// Before the browser tests start: the installs from npm that some of them need (the real API servers of
// issue 39, the benchmarks' peers) begin in the background, so that their minutes of downloading overlap
// other tests instead of holding up the one that needs them, which waits for them then (installOnce). A
// failed install here is tried again by that test.
import { installPeers, PEER_NAMES } from '../../bench/client-peers';
import { installServer } from './real-servers';

export default function setup(): void {
  const warn = (what: string) => (error: Error) =>
    console.warn(`${what}'s install in the background failed; its test will try again: ${error.message}`);
  for (const name of ['platformatic', 'directus'] as const)
    installServer(name).catch(warn(`the ${name} server`));
  installPeers(PEER_NAMES).catch(warn('the benchmarks’ peers'));
}
