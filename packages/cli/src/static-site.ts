import type { Model, SignIn } from '@ninefold/model';
import { API_BASE } from '@ninefold/model';
import { apiOrigin, contentSecurityPolicy } from '@ninefold/server';

/**
 * Where a static client calls its API: `--api-base` when given, else the specification's `calls.baseUrl`,
 * else `/api` (the prototype API's place, for a host that serves one next to the files).
 */
export function staticApiBase(model: Model, flag: string | undefined): string {
  if (flag !== undefined) return flag;
  if (model.calls.shown && model.calls.baseUrl) return model.calls.baseUrl;
  return API_BASE;
}

/**
 * Checks an API base: an absolute `http(s)` URL or a path on the client's own origin. Returns why it is
 * not one, or undefined.
 */
export function apiBaseProblem(base: string): string | undefined {
  if (base.startsWith('/') && !base.startsWith('//')) {
    return /^\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*$/.test(base)
      ? undefined
      : 'a path may hold only URL path characters';
  }
  return apiOrigin(base) === undefined
    ? 'give an absolute http(s) URL (https://api.example.com/v1) or a path (/api)'
    : undefined;
}

/**
 * Normalizes `--base PATH`, the path a static client is served under, to `/` or `/a/b/`. Returns undefined
 * for a path that could not be written into `<base href>` and `_headers` safely.
 */
export function normalizeBasePath(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  const withSlash = path.endsWith('/') ? path : `${path}/`;
  if (!/^\/(?:[A-Za-z0-9._~-]+\/)*$/.test(withSlash)) return undefined;
  if (withSlash.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return withSlash;
}

/** The full policy (a header can carry `frame-ancestors`) and the one a `<meta>` element can carry. */
export function staticPolicies(apiBase: string, signIn?: SignIn): { header: string; meta: string } {
  const origin = apiOrigin(apiBase);
  const connect = origin === undefined ? [] : [origin];
  const provider = signIn ? { signIn } : {};
  return {
    header: contentSecurityPolicy({ connect, ...provider }),
    meta: contentSecurityPolicy({ connect, meta: true, ...provider }),
  };
}

/**
 * The runtime's `index.html` for a static host: `<base href>` set to where it is served, and the policy
 * in a `<meta http-equiv>` before anything it governs, for hosts that cannot send headers.
 */
export function staticIndexHtml(html: string, options: { base: string; metaPolicy: string }): string {
  const base = `<base href="${escapeAttribute(options.base)}" />`;
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(options.metaPolicy)}" />`;
  const baseTag = /<base\s[^>]*>/i;
  let out = baseTag.test(html) ? html.replace(baseTag, base) : html;
  const charset = /<meta\s+charset=[^>]*>/i.exec(out);
  const head = /<head(?:\s[^>]*)?>/i.exec(out);
  const anchor = charset ?? head;
  if (!anchor) throw new Error('the runtime index.html has no <head>');
  const at = anchor.index + anchor[0].length;
  const insert = baseTag.test(out) ? `\n    ${meta}` : `\n    ${meta}\n    ${base}`;
  out = `${out.slice(0, at)}${insert}${out.slice(at)}`;
  return out;
}

/** `_headers` (Netlify, Cloudflare Pages): the security headers everywhere, and caching per kind of file. */
export function headersFile(base: string, headerPolicy: string): string {
  return [
    '# Written by ninefold build, for static hosts that read it (Netlify, Cloudflare Pages).',
    `${base}*`,
    `  Content-Security-Policy: ${headerPolicy}`,
    '  X-Content-Type-Options: nosniff',
    '  Referrer-Policy: no-referrer',
    `${base}assets/*`,
    '  Cache-Control: public, max-age=31536000, immutable',
    `${base}index.html`,
    '  Cache-Control: no-cache',
    `${base}spec.json`,
    '  Cache-Control: no-cache',
    '',
  ].join('\n');
}

/** `_redirects` (Netlify): deep links get the page; files that exist are served as they are. */
export function redirectsFile(base: string): string {
  return [
    '# Written by ninefold build: client-side routes (deep links) are answered with the page.',
    `${base}*  ${base}index.html  200`,
    '',
  ].join('\n');
}

function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}
