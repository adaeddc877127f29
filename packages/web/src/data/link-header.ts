/**
 * The targets of an HTTP `Link` header (RFC 8288) by relation: `<…?page=3>; rel="next"` gives
 * `{ next: '…?page=3' }`. A link with several relations (`rel="next last"`) is listed under each; the first
 * link of a relation wins. Malformed parts are skipped.
 *
 * @example
 * ```ts
 * parseLinkHeader('</api/orders?page=2>; rel="next", </api/orders?page=9>; rel=last').next; // '/api/orders?page=2'
 * ```
 */
export function parseLinkHeader(header: string | null | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  // A target may hold commas and semicolons; it ends at its `>`. Parameters run to the next `<`.
  const pattern = /<([^>]*)>([^<]*)/g;
  for (const match of header.matchAll(pattern)) {
    const target = match[1] ?? '';
    const parameters = match[2] ?? '';
    const rel = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(parameters);
    const names = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    for (const name of names) if (!Object.hasOwn(links, name)) links[name] = target;
  }
  return links;
}
