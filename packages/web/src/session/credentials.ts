import { exhaustiveSwitchError, type SignIn } from '@ninefold/model';

/**
 * What the client holds to prove who is asking. It lives in the session store's memory (and, where the
 * specification says `session`, in the tab's session storage); it is never put in an address or a log.
 */
export type Credentials =
  | { scheme: 'bearer'; token: string; refreshToken?: string }
  | { scheme: 'basic'; encoded: string }
  | { scheme: 'api-key'; key: string };

/** A header or cookie name as HTTP allows it (RFC 9110 token). */
const TOKEN_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why credentials of a kind cannot be sent at all; undefined when they can. */
export type CannotSend = 'key-in-query' | 'bad-key-name' | 'cookie-elsewhere';

/**
 * Whether this client can send the specification's credentials. A key in the query string is refused:
 * addresses end up in server logs, browser history and `Referer` headers.
 */
export function cannotSend(signIn: SignIn, apiBase: string): CannotSend | undefined {
  if (signIn.kind !== 'api-key') return undefined;
  if (signIn.in === 'query') return 'key-in-query';
  if (!TOKEN_NAME.test(signIn.name)) return 'bad-key-name';
  if (signIn.in === 'cookie' && cookieScope(apiBase) === undefined) return 'cookie-elsewhere';
  return undefined;
}

/** The headers that carry credentials on a request: `Authorization`, or the API key's own header. */
export function headersFor(signIn: SignIn, credentials: Credentials | undefined): Record<string, string> {
  if (!credentials) return {};
  switch (credentials.scheme) {
    case 'bearer':
      return { authorization: `Bearer ${credentials.token}` };
    case 'basic':
      return { authorization: `Basic ${credentials.encoded}` };
    case 'api-key':
      // A cookie key travels as a cookie (see `setKeyCookie`), not as a header.
      return signIn.kind === 'api-key' && signIn.in === 'header' ? { [signIn.name]: credentials.key } : {};
    default:
      return exhaustiveSwitchError(credentials);
  }
}

/** HTTP basic's `user:password`, UTF-8 then base64 (RFC 7617). */
export function basicCredentials(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Puts an API key in a cookie for the API's path, for this tab's browser session only (no expiry) and
 * never sent to other sites (`SameSite=Strict`).
 */
export function setKeyCookie(name: string, key: string, apiBase: string): void {
  const scope = cookieScope(apiBase);
  if (scope === undefined || typeof document === 'undefined') return;
  const secure = scope.secure ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser served.
  document.cookie = `${name}=${encodeURIComponent(key)}; Path=${scope.path}; SameSite=Strict${secure}`;
}

/** Removes the API key's cookie. */
export function clearKeyCookie(name: string, apiBase: string): void {
  const scope = cookieScope(apiBase);
  if (scope === undefined || typeof document === 'undefined') return;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser served.
  document.cookie = `${name}=; Path=${scope.path}; Max-Age=0; SameSite=Strict`;
}

/** The cookie path for the API, when the API is at this page's origin (a page cannot set another's). */
function cookieScope(apiBase: string): { path: string; secure: boolean } | undefined {
  if (typeof document === 'undefined') return undefined;
  try {
    const page = new URL(document.baseURI);
    const api = new URL(apiBase || '/', page);
    if (api.origin !== page.origin) return undefined;
    return { path: api.pathname.replace(/\/+$/, '') || '/', secure: api.protocol === 'https:' };
  } catch {
    return undefined;
  }
}
