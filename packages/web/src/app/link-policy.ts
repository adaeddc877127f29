/** Characters that reorder or hide text: bidirectional overrides and isolates, and the invisible marks. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
/** Never part of an address a person could read: controls, spaces, backslashes, bidirectional marks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses.
const UNREADABLE = /[\u0000-\u0020\u007F\\\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

/**
 * Where a link from data or Markdown may go. `same-site`: a path of this client's origin, followed like
 * any link (and, for files, fetched with the session). `external`: an https address elsewhere, only
 * where the specification says the value is a URL, and always marked as leaving the site.
 */
export type LinkTarget = { kind: 'same-site'; href: string } | { kind: 'external'; href: string };

/**
 * The link an address from the API or a Markdown text may become, or undefined when it may not become
 * one at all (shown as text). A protocol-relative `//host/path`, `javascript:`, `data:`, `mailto:`, plain
 * http, or an address with spaces, backslashes or bidirectional controls never becomes a link.
 *
 * @example
 * linkTarget('/api/_files/7', { origin: 'https://shop.example' })  // { kind: 'same-site', href: '/api/_files/7' }
 * linkTarget('//evil.example/x', { origin: 'https://shop.example' }) // undefined
 * linkTarget('https://docs.example/a', { external: true })          // { kind: 'external', href: 'https://docs.example/a' }
 * linkTarget('https://docs.example/a')                              // undefined
 */
export function linkTarget(
  url: string,
  options: { external?: boolean; origin?: string } = {},
): LinkTarget | undefined {
  const text = url.trim();
  if (text === '' || UNREADABLE.test(text)) return undefined;
  if (text.startsWith('#') || /^\/(?![/\\])/.test(text)) return { kind: 'same-site', href: text };
  if (!/^https?:\/\//i.test(text)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return undefined;
  }
  const origin = options.origin ?? currentOrigin();
  if (origin !== undefined && parsed.origin === origin) {
    return { kind: 'same-site', href: `${parsed.pathname}${parsed.search}${parsed.hash}` };
  }
  if (options.external && parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '') {
    return { kind: 'external', href: parsed.href };
  }
  return undefined;
}

/**
 * Text with its bidirectional controls made visible (`⟦U+202E⟧`) instead of obeyed, so that a value cannot
 * make `exe.txt` read as `txt.exe`, nor hide where a link's text ends.
 *
 * @example
 * visibleControls('invoice\u202Etxt.exe') // 'invoice⟦U+202E⟧txt.exe'
 */
export function visibleControls(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (mark) => `⟦U+${mark.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`,
  );
}

function currentOrigin(): string | undefined {
  return typeof window === 'undefined' ? undefined : window.location.origin;
}
