import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** How a body may be sent: compressed by one of the two codings every browser accepts, or as it is. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * The best coding an `Accept-Encoding` header allows: Brotli, then gzip, else none. A coding with
 * `q=0` is refused by the client and never chosen.
 *
 * @example
 * ```ts
 * preferredCoding('gzip, deflate, br, zstd'); // 'br'
 * preferredCoding('br;q=0, gzip'); // 'gzip'
 * preferredCoding(undefined); // 'identity'
 * ```
 */
export function preferredCoding(header: string | string[] | undefined): ContentCoding {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const accepted = new Set<string>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(?:\.0{0,3})?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** A body that is compressed at most once per coding, on first demand, and then served as it is. */
export interface EncodedBody {
  body(coding: ContentCoding): Buffer;
}

/**
 * Keeps a large answer that never changes (the model at `/spec.json`, megabytes for a big API) ready in
 * each coding, so that each request costs neither a JSON serialization nor a compression.
 *
 * @example
 * ```ts
 * const spec = encodedBody(JSON.stringify({ model, api }));
 * reply.header('content-encoding', 'br').send(spec.body('br'));
 * ```
 */
export function encodedBody(text: string): EncodedBody {
  const plain = Buffer.from(text);
  const cache = new Map<ContentCoding, Buffer>([['identity', plain]]);
  return {
    body(coding) {
      let found = cache.get(coding);
      if (found === undefined) {
        // Brotli's quality 5 compresses a 3 MB model in tens of milliseconds to about the size of
        // gzip's best; its top qualities take seconds for little more.
        found =
          coding === 'br'
            ? brotliCompressSync(plain, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: 5,
                  [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
                },
              })
            : gzipSync(plain, { level: 6 });
        cache.set(coding, found);
      }
      return found;
    },
  };
}
