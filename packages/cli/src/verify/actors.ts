// Who verify acts as: a person per role, signed in as `--as` says and point 6's sign-in does, and someone
// not signed in. Credentials go in headers only, and are never printed.
import {
  type Call,
  type Model,
  permissionsApply,
  principalOfUser,
  readTokenAnswer,
  roleLabel,
  SESSION_PATH,
  type SignIn,
  signInRoles,
  type UserRecord,
  visitorRole,
} from '@ninefold/model';
import type { ApiClient, Credentials } from './http';
import type { Actor } from './run';

/** One `--as`: a role and how to sign in as it. */
export type AsOption =
  | { role: string; kind: 'password'; email: string; password: string }
  | { role: string; kind: 'token'; token: string };

/**
 * Reads `--as ROLE=EMAIL:PASSWORD` or `--as ROLE=token:TOKEN`.
 *
 * @example
 * parseAs('owner=ann@shop.test:s3cret'); // { role: 'owner', kind: 'password', email: 'ann@shop.test', password: 's3cret' }
 */
export function parseAs(text: string): AsOption {
  const equals = text.indexOf('=');
  if (equals <= 0)
    throw new Error(`--as takes ROLE=EMAIL:PASSWORD or ROLE=token:TOKEN, not "${text.slice(0, 40)}"`);
  const role = text.slice(0, equals);
  const rest = text.slice(equals + 1);
  if (rest.startsWith('token:')) {
    const token = rest.slice('token:'.length);
    if (!token) throw new Error(`--as ${role}=token: needs the token after "token:"`);
    return { role, kind: 'token', token };
  }
  const colon = rest.indexOf(':');
  if (colon <= 0 || colon === rest.length - 1) {
    throw new Error(`--as ${role}= takes EMAIL:PASSWORD or token:TOKEN`);
  }
  return { role, kind: 'password', email: rest.slice(0, colon), password: rest.slice(colon + 1) };
}

/**
 * The actors of a run: someone not signed in (where point 6 applies, to check what they are refused,
 * or what a visitor role may read), then one per `--as`. Throws with a sentence when a sign-in fails
 * or an `--as` names a role point 6 does not have.
 */
export async function signInActors(
  model: Model,
  calls: readonly Call[],
  client: ApiClient,
  options: readonly AsOption[],
): Promise<{ actors: Actor[]; missing: string[] }> {
  const visitor = visitorRole(model);
  // Without point 6 nobody signs in: whoever calls is simply anyone.
  const label = !permissionsApply(model)
    ? 'Anyone'
    : visitor
      ? `Someone not signed in (${roleLabel(model, visitor.name)})`
      : 'Someone not signed in';
  const anyone: Actor = { role: undefined, label, principal: {} };
  const actors: Actor[] = permissionsApply(model) || options.length === 0 ? [anyone] : [];
  const roles = signInRoles(model);
  for (const option of options) {
    if (!roles.includes(option.role)) {
      throw new Error(
        `--as names the role "${option.role}", which point 6 does not have${roles.length ? `; it has ${roles.join(', ')}` : ''}`,
      );
    }
    actors.push(await signIn(model, calls, client, option));
  }
  const given = new Set(options.map((o) => o.role));
  return { actors, missing: permissionsApply(model) ? roles.filter((role) => !given.has(role)) : [] };
}

async function signIn(
  model: Model,
  calls: readonly Call[],
  client: ApiClient,
  option: AsOption,
): Promise<Actor> {
  const label = roleLabel(model, option.role);
  const signInKind: SignIn = model.roles.shown ? model.roles.signIn : { kind: 'none' };
  let credentials: Credentials;
  let user: UserRecord | undefined;
  if (option.kind === 'token') {
    credentials = { headers: tokenHeaders(signInKind, option.token) };
  } else if (signInKind.kind === 'basic') {
    credentials = {
      headers: {
        authorization: `Basic ${Buffer.from(`${option.email}:${option.password}`).toString('base64')}`,
      },
    };
  } else {
    const call = calls.find((c) => c.purpose === 'sign-in');
    if (!call)
      throw new Error(
        `--as ${option.role}: point 7 names no sign-in call to send EMAIL:PASSWORD to; give --as ${option.role}=token:… instead`,
      );
    const answer = await client.send(
      { method: call.method, path: call.path, as: option.role, body: { email: option.email, password: '…' } },
      undefined,
      {},
      { email: option.email, password: option.password },
    );
    const read = readTokenAnswer(answer.json, Date.now());
    if (answer.status !== 200 || !read) {
      throw new Error(
        `--as ${option.role}: signing in as ${option.email} answered ${answer.status}${typeof (answer.json as { detail?: unknown })?.detail === 'string' ? ` (${(answer.json as { detail: string }).detail})` : ''}`,
      );
    }
    credentials = { headers: { authorization: `Bearer ${read.token}` } };
    user = read.user;
  }
  user ??= await sessionUser(client, credentials, option.role);
  const role = typeof user?.role === 'string' ? user.role : option.role;
  if (role !== option.role) {
    throw new Error(`--as ${option.role}: those credentials sign in as the role "${role}"`);
  }
  const principal = principalOfUser({ ...(user ?? {}), role });
  return { role, label, credentials, principal };
}

function tokenHeaders(signIn: SignIn, token: string): Record<string, string> {
  if (signIn.kind === 'api-key') {
    return signIn.in === 'cookie'
      ? { cookie: `${signIn.name}=${encodeURIComponent(token)}` }
      : { [signIn.name.toLowerCase()]: token };
  }
  return { authorization: `Bearer ${token}` };
}

/** The person the credentials are, where the API answers the prototype's session call. */
async function sessionUser(
  client: ApiClient,
  credentials: Credentials,
  role: string,
): Promise<UserRecord | undefined> {
  try {
    const answer = await client.send({ method: 'GET', path: SESSION_PATH, as: role }, credentials);
    const user = (answer.json as { user?: unknown } | undefined)?.user;
    return answer.status === 200 && user && typeof user === 'object' ? (user as UserRecord) : undefined;
  } catch {
    return undefined;
  }
}
