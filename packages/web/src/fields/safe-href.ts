/**
 * An address from the API that may become a link: http(s), or a path on the same site. Anything else
 * (`javascript:`, `data:`) is shown as text, never followed.
 *
 * @example
 * safeHref('https://example.com/po.pdf') // 'https://example.com/po.pdf'
 * safeHref('javascript:alert(1)')        // undefined
 */
export function safeHref(url: string, options: { sameSite?: boolean } = {}): string | undefined {
  const trimmed = url.trim();
  if (/^https?:\/\/[^\s]+$/i.test(trimmed)) return trimmed;
  if (options.sameSite && /^\/(?!\/)[^\s]*$/.test(trimmed)) return trimmed;
  return undefined;
}
