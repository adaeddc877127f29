import type { AccessVerdict } from '@ninefold/model';
import type { SessionValue } from '../session/SessionContext';

/**
 * Whether the client cannot know the person's role: the specification names no sign-in (nobody could
 * ever have a role), or the person is signed in but the API did not say with which role (a real API
 * behind the proxy). The shell's navigation reads the session the same way.
 */
export function roleUnknown({ state, principal }: SessionValue): boolean {
  return state.status === 'none' || (state.status === 'signed-in' && principal.role === undefined);
}

/**
 * A verdict as the client acts on it: a refusal for want of a role is left to the API when the client
 * cannot know the role, rather than refusing someone who may well be allowed. Every other refusal stands.
 *
 * @example
 * settle(checkScreen(model, {}, orders), { state: { status: 'none' }, principal: {} }) // { allowed: true }
 */
export function settle(verdict: AccessVerdict, session: SessionValue): AccessVerdict {
  return !verdict.allowed && verdict.reason === 'not-signed-in' && roleUnknown(session)
    ? { allowed: true }
    : verdict;
}
