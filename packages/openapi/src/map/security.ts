import type { Role, Roles, SignIn } from '@ninefold/model';
import type { MappedCall } from './calls';
import type { MapContext } from './context';
import { deref, IDENTIFIER, isRecord, list, pointer, text } from './document';

/**
 * Point 6: sign-in from the security scheme the document applies (its global `security` first), and
 * roles from that scheme's OAuth scopes. Grants are never inferred: which role may do what is not in
 * the document.
 *
 * @example
 * ```ts
 * mapRoles(context, calls); // { shown: true, signIn: { kind: 'api-key', in: 'header', name: 'Authorization', ... } }
 * ```
 */
export function mapRoles(
  context: MapContext,
  calls: MappedCall[],
): ({ shown: true } & Roles) | { shown: false; reason: string } {
  const schemes = context.doc.components?.securitySchemes;
  if (!isRecord(schemes) || Object.keys(schemes).length === 0) {
    context.report.add('roles', 'not-shown', '', 'the document has no securitySchemes');
    return { shown: false, reason: 'Not shown: the OpenAPI document has no securitySchemes.' };
  }
  const applied = new Set<string>();
  for (const requirement of list(context.doc.security))
    if (isRecord(requirement)) for (const key of Object.keys(requirement)) applied.add(key);
  const uses = schemeUses(calls);
  const chosen = context.signInScheme;
  if (chosen !== undefined && !Object.hasOwn(schemes, chosen)) {
    context.issues.push({
      code: 'unknown-reference',
      severity: 'error',
      message: `--sign-in: the document has no security scheme "${chosen}"; it has ${Object.keys(schemes)
        .map((key) => `"${key}"`)
        .join(', ')}.`,
      path: ['components', 'securitySchemes'],
    });
  }
  const signInMapped = calls.find((c) => c.call.purpose === 'sign-in');
  const signInCall: SignInCall | undefined =
    signInMapped === undefined
      ? undefined
      : { name: signInMapped.call.name, flat: takesEmailAndPassword(context, signInMapped) };
  // The schemes the document applies come first, as written: the API asks for those. Among the others,
  // one the client completes by itself comes first, then the code flow (it needs a client id), then
  // one that needs a pasted token.
  const rank = (key: string): number => {
    const scheme = schemes[key];
    const mapped = isRecord(scheme) ? signInOf(scheme, signInCall, context.clientId) : 'not a scheme';
    if (typeof mapped === 'string') return 4;
    // A key in the query string puts the credential in every URL (logs, history): the last resort.
    if (mapped.signIn.kind === 'api-key' && mapped.signIn.in === 'query') return 3;
    return mapped.signIn.kind === 'token' ? 2 : mapped.signIn.kind === 'oauth2' ? 1 : 0;
  };
  // Then the schemes the operations name, most used first: a scheme no call asks for opens nothing.
  const others = Object.keys(schemes)
    .filter((key) => !applied.has(key))
    .map((key) => ({ key, rank: rank(key), used: uses.get(key)?.length ?? 0 }))
    .sort((a, b) => b.used - a.used || a.rank - b.rank)
    .map(({ key }) => key);
  const ranked = [...applied, ...others];
  // The person's choice comes before any ranking; the others stay in line should it map to no sign-in.
  const order =
    chosen !== undefined && Object.hasOwn(schemes, chosen)
      ? [chosen, ...ranked.filter((key) => key !== chosen)]
      : ranked;
  const reasons: string[] = [];
  for (const key of order) {
    const scheme = schemes[key];
    const at = pointer('components', 'securitySchemes', key);
    if (!isRecord(scheme)) continue;
    const mapped = signInOf(scheme, signInCall, context.clientId);
    if (typeof mapped === 'string') {
      reasons.push(`"${key}": ${mapped}`);
      context.report.add('roles', 'skipped', at, `security scheme "${key}" is not a sign-in: ${mapped}`);
      continue;
    }
    const { signIn, scopes } = mapped;
    context.report.add(
      'roles',
      'mapped',
      at,
      `security scheme "${key}" -> sign-in ${signIn.kind}${signIn.kind === 'password' ? ` through call "${signIn.call}"` : ''}`,
    );
    if (signIn.kind === 'password')
      context.report.add(
        'roles',
        'inferred',
        at,
        `sign-in call "${signIn.call}": its path names a login${scheme.type === 'apiKey' ? `; "${key}" is the Authorization header, so the token it answers is sent as a bearer token` : ''}`,
      );
    if (key === chosen)
      context.report.add('roles', 'mapped', at, `"${key}" is the scheme chosen at import (--sign-in)`);
    else if (!applied.has(key) && (uses.get(key)?.length ?? 0) > 0)
      context.report.add(
        'roles',
        'inferred',
        at,
        `"${key}" is the scheme the operations name (${uses.get(key)?.length} of them), and the document applies none to all`,
      );
    if (signIn.kind === 'token')
      context.report.add(
        'roles',
        'inferred',
        at,
        `"${key}" gives no way for a browser client to get a token (${tokenReason(scheme)}): the person pastes an access token, kept for the tab`,
      );
    if (signIn.kind === 'oauth2' && signIn.clientId === undefined)
      context.report.add(
        'roles',
        'inferred',
        at,
        `"${key}" names no client id, which the provider's page needs: the sign-in page asks for one (or give --client-id), and also takes a pasted access token`,
      );
    if ((signIn.kind === 'oauth2' || signIn.kind === 'oidc') && signIn.clientId !== undefined)
      context.report.add(
        'roles',
        'inferred',
        at,
        `"${key}" signs in as client "${signIn.clientId}", as given at import`,
      );
    const roles: Role[] = [];
    for (const [scope, description] of scopes) {
      if (!IDENTIFIER.test(scope)) {
        context.report.add(
          'roles',
          'skipped',
          at,
          `scope "${scope}" is not a role: its name is not a plain name (letters, digits, _ and -)`,
        );
        continue;
      }
      const role: Role = { name: scope };
      if (description) role.description = description;
      roles.push(role);
    }
    if (roles.length > 0)
      context.report.add(
        'roles',
        'inferred',
        at,
        `roles ${roles.map((r) => r.name).join(', ')} are the OAuth scopes of "${key}"`,
      );
    context.report.add(
      'roles',
      'not-shown',
      at,
      'grants (which role may read or change which entity) are not in the document',
    );
    if (order.length > 1)
      for (const other of order.filter((o) => o !== key))
        context.report.add(
          'roles',
          'skipped',
          pointer('components', 'securitySchemes', other),
          `security scheme "${other}" is not used: the client signs in one way, "${key}"; ${namedBy(other, uses, applied)}; choose it with --sign-in ${other}`,
        );
    return { shown: true, signIn, roles, grants: [] };
  }
  return {
    shown: false,
    reason: `Not shown: no security scheme maps to a sign-in the client can do (${reasons.join('; ')}).`,
  };
}

/** The document's sign-in call, and whether its body takes `email` and `password` at its top level. */
interface SignInCall {
  name: string;
  flat: boolean;
}

/**
 * Whether a sign-in call's body has `email` and `password` properties of its own, as the sign-in page
 * sends them (Directus's `/auth/login`); Conduit's `{ user: { email, password } }` does not.
 */
function takesEmailAndPassword(context: MapContext, mapped: MappedCall): boolean {
  const schema = deref(context.doc, mapped.info.body?.schema);
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  return Object.hasOwn(properties, 'email') && Object.hasOwn(properties, 'password');
}

/** The calls that name each security scheme in their operation's own `security`. */
function schemeUses(calls: MappedCall[]): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  for (const { call, info } of calls)
    for (const requirement of list(info.operation.security))
      if (isRecord(requirement))
        for (const key of Object.keys(requirement)) {
          const names = uses.get(key) ?? [];
          names.push(call.name);
          uses.set(key, names);
        }
  return uses;
}

/** Which calls need a scheme, in words: all of them, some by name, or none. */
function namedBy(key: string, uses: Map<string, string[]>, applied: Set<string>): string {
  if (applied.has(key)) return 'the document applies it to every call';
  const names = uses.get(key) ?? [];
  if (names.length === 0) return 'no call names it';
  const shown = names.slice(0, 5).join(', ');
  return `${names.length} call${names.length === 1 ? ' names' : 's name'} it (${shown}${names.length > 5 ? ', …' : ''})`;
}

/** A bearer token the person pastes, kept for the tab: the way in when the client cannot get one itself. */
const PASTED_TOKEN: SignIn = { kind: 'token', session: 'session' };

function tokenReason(scheme: Record<string, unknown>): string {
  switch (text(scheme.type)) {
    case 'openIdConnect':
      return 'OpenID Connect without a client id';
    case 'oauth2':
      return `OAuth 2 with flows ${Object.keys(isRecord(scheme.flows) ? scheme.flows : {}).join(', ') || 'none'}, not the code flow`;
    default:
      return 'a bearer token with no operation that signs in';
  }
}

/** The scopes of every flow, each once, with its description. */
function scopesOf(flows: Record<string, unknown>): Array<[string, string]> {
  const scopes = new Map<string, string>();
  for (const flow of Object.values(flows))
    if (isRecord(flow) && isRecord(flow.scopes))
      for (const [scope, description] of Object.entries(flow.scopes))
        if (!scopes.has(scope)) scopes.set(scope, typeof description === 'string' ? description : '');
  return [...scopes];
}

function signInOf(
  scheme: Record<string, unknown>,
  signInCall: SignInCall | undefined,
  /** The client id given at import: no document has it, and the provider's page needs it. */
  clientId: string | undefined,
): { signIn: SignIn; scopes: Array<[string, string]> } | string {
  const type = text(scheme.type);
  switch (type) {
    case 'http': {
      const how = text(scheme.scheme)?.toLowerCase();
      if (how === 'basic') return { signIn: { kind: 'basic', session: 'memory' }, scopes: [] };
      if (how === 'bearer') {
        if (signInCall !== undefined)
          return { signIn: { kind: 'password', call: signInCall.name, session: 'memory' }, scopes: [] };
        // No operation hands out the token: the person brings one (a personal access token).
        return { signIn: PASTED_TOKEN, scopes: [] };
      }
      return `HTTP scheme "${String(scheme.scheme)}" is not one the client speaks`;
    }
    case 'apiKey': {
      const where = scheme.in;
      const name = text(scheme.name);
      // `Authorization: Bearer …` described as an API key (Directus): with a call that signs in with an
      // email and a password as the sign-in page sends them, it is that call's token, not a key to paste.
      if (where === 'header' && name?.toLowerCase() === 'authorization' && signInCall?.flat)
        return { signIn: { kind: 'password', call: signInCall.name, session: 'memory' }, scopes: [] };
      if ((where === 'header' || where === 'query' || where === 'cookie') && name)
        return { signIn: { kind: 'api-key', in: where, name, session: 'session' }, scopes: [] };
      return 'an API key without a valid name and location';
    }
    case 'oauth2': {
      const flows = isRecord(scheme.flows) ? scheme.flows : {};
      const code = isRecord(flows.authorizationCode) ? flows.authorizationCode : undefined;
      if (code && text(code.authorizationUrl) && text(code.tokenUrl)) {
        const scopes = isRecord(code.scopes)
          ? Object.entries(code.scopes).map(
              ([k, v]) => [k, typeof v === 'string' ? v : ''] as [string, string],
            )
          : [];
        return {
          signIn: {
            kind: 'oauth2',
            authorizationUrl: text(code.authorizationUrl) as string,
            tokenUrl: text(code.tokenUrl) as string,
            ...(clientId === undefined ? {} : { clientId }),
            scopes: scopes.map(([k]) => k),
            session: 'memory',
          },
          scopes,
        };
      }
      // The client runs only the code flow; a token from any other flow can still be pasted.
      return { signIn: PASTED_TOKEN, scopes: scopesOf(flows) };
    }
    case 'openIdConnect': {
      // The document gives the provider but never the client's id: without one given at import, the
      // person pastes a token instead.
      const issuer = text(scheme.openIdConnectUrl)?.replace(/\/\.well-known\/openid-configuration\/?$/, '');
      if (clientId === undefined || issuer === undefined) return { signIn: PASTED_TOKEN, scopes: [] };
      return { signIn: { kind: 'oidc', issuer, clientId, scopes: [], session: 'memory' }, scopes: [] };
    }
    case 'mutualTLS':
      return 'mutual TLS is done by the browser, not the client';
    default:
      return `type "${String(type)}" is not a known security scheme type`;
  }
}
