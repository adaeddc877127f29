import type { ApiDescription, Call } from '@ninefold/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticationOf } from '../access';
import { ProblemError, problem } from '../problem';
import type { Authenticator } from './authenticate';

/** The most a sign-in body may hold: an email and a password, never a novel. */
const SIGN_IN_BODY_LIMIT = 4096;
const MAX_FIELD = 1024;

/**
 * The prototype API's session calls: password sign-in (at the path of point 7's sign-in call),
 * who the credentials belong to, a fresh token for a live session, and signing out (which revokes the
 * token). Tokens travel in bodies and `Authorization` headers only, never in addresses.
 */
export function registerAuthRoutes(app: FastifyInstance, api: ApiDescription, auth: Authenticator): void {
  if (!api.auth) return;
  const signInCalls = api.calls.filter((call) => call.purpose === 'sign-in');
  const signOutCalls = api.calls.filter((call) => call.purpose === 'sign-out');
  for (const call of signInCalls) {
    app.route({
      method: call.method,
      url: routeOf(api.base, call.path),
      bodyLimit: SIGN_IN_BODY_LIMIT,
      handler: auth.kind === 'password' ? signIn(auth) : notForKind(auth, call),
    });
  }
  app.get(routeOf(api.base, api.auth.session), async (request) => {
    const who = authenticationOf(request);
    if (who.kind !== 'user') throw notSignedIn();
    return {
      user: who.principal.user,
      ...(who.session ? { expiresAt: new Date(who.session.expiresAt * 1000).toISOString() } : {}),
    };
  });
  // A specification's own refresh call (point 7) is answered as the conventional one is; there is one
  // only with a password sign-in, whose tokens this API makes.
  const refreshRoutes = new Map<string, string>();
  if (api.auth.refresh) {
    refreshRoutes.set(api.auth.refresh, 'POST');
    for (const call of api.calls.filter((each) => each.purpose === 'refresh'))
      refreshRoutes.set(call.path, call.method);
  }
  for (const [path, method] of refreshRoutes) {
    app.route({ method, url: routeOf(api.base, path), handler: refresh });
  }
  async function refresh(request: FastifyRequest, reply: FastifyReply) {
    const who = authenticationOf(request);
    if (who.kind !== 'user' || !who.session) throw notSignedIn();
    const user = { ...who.principal.user, id: String(who.principal.user.id), role: who.principal.role };
    const fresh = await auth.refresh(user, who.session);
    noStore(reply);
    return {
      token: fresh.token,
      tokenType: 'Bearer',
      expiresAt: new Date(fresh.expiresAt * 1000).toISOString(),
      user: who.principal.user,
    };
  }
  const signOut = async (request: FastifyRequest, reply: FastifyReply) => {
    const who = authenticationOf(request);
    if (who.kind === 'user' && who.session) await auth.revoke(who.session);
    return reply.code(204).send();
  };
  const signOutPaths = new Set([api.auth.signOut, ...signOutCalls.map((call) => call.path)]);
  for (const path of signOutPaths) {
    const method = signOutCalls.find((call) => call.path === path)?.method ?? 'POST';
    app.route({ method, url: routeOf(api.base, path), handler: signOut });
  }
}

function signIn(auth: Authenticator) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as unknown;
    const fields = readSignInBody(body);
    if (!fields) {
      throw new ProblemError(
        problem(400, 'INVALID_SIGN_IN', 'Send {"email": "…", "password": "…"} as JSON, and nothing else.'),
      );
    }
    const result = await auth.signIn(fields.email, fields.password, request.ip);
    if (!result.ok) {
      if (result.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(result.retryAfterSeconds));
      throw new ProblemError(
        problem(result.code === 'TOO_MANY_ATTEMPTS' ? 429 : 401, result.code, result.message),
      );
    }
    noStore(reply);
    return {
      token: result.token,
      tokenType: 'Bearer',
      expiresAt: new Date(result.expiresAt * 1000).toISOString(),
      user: result.user,
    };
  };
}

/**
 * Exactly an email and a password, as text: any other key (a `role`, an `isAdmin`) is refused rather
 * than ignored, so nobody can believe they chose their own role.
 */
function readSignInBody(body: unknown): { email: string; password: string } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length !== 2) return undefined;
  const { email, password } = body as Record<string, unknown>;
  if (typeof email !== 'string' || typeof password !== 'string') return undefined;
  if (email.length === 0 || email.length > MAX_FIELD || password.length > MAX_FIELD) return undefined;
  return { email, password };
}

function notForKind(auth: Authenticator, call: Call) {
  return async () => {
    throw new ProblemError(
      problem(
        501,
        'NOT_IMPLEMENTED',
        `Point 6 signs in with ${auth.kind}, so the prototype API does not take passwords at ${call.name}.`,
      ),
    );
  };
}

function notSignedIn(): ProblemError {
  return new ProblemError(problem(401, 'NOT_SIGNED_IN', 'Sign in first.'));
}

/** Answers holding a token are never kept by a cache. */
function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}

function routeOf(base: string, path: string): string {
  return `${base}${path.replace(/\{([^}]+)\}/g, ':$1')}`;
}
