import { MAX_MARKDOWN_BYTES, MAX_SPEC_BYTES, type SpecFormat } from '@ninefold/model';

/**
 * The longest address fragment a shared link may carry. Browsers take far more, but the places links
 * travel through (chat, mail, issue trackers) cut or refuse addresses past a few thousand characters;
 * 16,000 keeps a link whole in those we know of. A text whose link would be longer is offered as a
 * download instead.
 */
export const MAX_LINK_FRAGMENT = 16_000;

/** The most a shared text may hold once decompressed: the loader's own limit for its format. */
export function maxSharedBytes(format: SpecFormat): number {
  return format === 'markdown' ? MAX_MARKDOWN_BYTES : MAX_SPEC_BYTES;
}

/** A text as it travels in a link: its format and the deflated bytes, in base64url. */
export type LinkResult =
  | { ok: true; fragment: string }
  | { ok: false; reason: 'too-long'; length: number; limit: number };

export type OpenedLink =
  | { ok: true; text: string; format: SpecFormat }
  | { ok: false; message: string }
  /** The fragment is not a shared text (empty, or something else's). */
  | { ok: false; message?: undefined };

const PREFIX: Record<SpecFormat, string> = { markdown: 'md', yaml: 'yaml', json: 'json' };

/**
 * The address fragment that carries `text`: `#md=<deflate-raw, base64url>`. A fragment never reaches a
 * server, so a shared specification is never in anybody's access log.
 *
 * @example
 * ```ts
 * const link = await linkFragment('# Shop\n', 'markdown'); // { ok: true, fragment: 'md=U1YIzs8BAA' }
 * ```
 */
export async function linkFragment(text: string, format: SpecFormat): Promise<LinkResult> {
  const packed = await deflate(new TextEncoder().encode(text));
  const fragment = `${PREFIX[format]}=${toBase64Url(packed)}`;
  return fragment.length > MAX_LINK_FRAGMENT
    ? { ok: false, reason: 'too-long', length: fragment.length, limit: MAX_LINK_FRAGMENT }
    : { ok: true, fragment };
}

/**
 * The text a fragment carries, or why it cannot be opened: a fragment past the length limit, bytes that
 * do not inflate, or a text past the loader's limit (read only that far, so a small link cannot
 * unpack into gigabytes).
 */
export async function openFragment(hash: string): Promise<OpenedLink> {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  const match = /^(md|yaml|json)=([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!match) return { ok: false };
  const format = (Object.keys(PREFIX) as SpecFormat[]).find((key) => PREFIX[key] === match[1]) ?? 'markdown';
  if (fragment.length > MAX_LINK_FRAGMENT) {
    return {
      ok: false,
      message: `The link holds ${fragment.length.toLocaleString('en')} characters; a shared link may hold ${MAX_LINK_FRAGMENT.toLocaleString('en')}.`,
    };
  }
  const bytes = fromBase64Url(match[2] ?? '');
  if (!bytes) return { ok: false, message: 'The link is damaged: its text is not valid base64url.' };
  const limit = maxSharedBytes(format);
  const inflated = await inflate(bytes, limit);
  if (inflated === 'damaged') return { ok: false, message: 'The link is damaged: its text does not unpack.' };
  if (inflated === 'too-large') {
    return {
      ok: false,
      message: `The link unpacks to more than ${Math.round(limit / 1024).toLocaleString('en')} KiB, the most a ${format === 'markdown' ? 'Markdown' : 'YAML or JSON'} specification may hold.`,
    };
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(inflated);
  return { ok: true, text, format };
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function inflate(bytes: Uint8Array, limit: number): Promise<Uint8Array | 'damaged' | 'too-large'> {
  const reader = new Blob([bytes as BlobPart])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'))
    .getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return 'too-large';
      }
      parts.push(value);
    }
  } catch {
    return 'damaged';
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}
