/**
 * Where the client is mounted, set by an app that embeds it (`<NinefoldApp basename="/admin">`); a page of
 * its own takes it from its `<base href>` instead, so the same files work below any sub-path.
 */
let mounted: string | undefined;

/** Mounts the client below `path` (`/admin`); undefined goes back to the page's `<base href>`. */
export function setBasename(path: string | undefined): void {
  mounted = path === undefined ? undefined : normalize(path);
}

/** The path the client is served under: `/` or `/a/b`, without a trailing slash. */
export function basename(): string {
  if (mounted !== undefined) return mounted;
  return normalize(new URL(document.baseURI).pathname);
}

/** An address inside the client as a full URL on this page's origin: `clientUrl('/auth/callback')`. */
export function clientUrl(path: string): string {
  const base = basename();
  return new URL(`${base === '/' ? '' : base}${path}`, window.location.origin).href;
}

function normalize(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
