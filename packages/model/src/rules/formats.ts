import type { JsonSchema } from './entity-schema';

/** How a text field's format is checked, and the words for a value that fails the check. */
export interface FormatCheck {
  schema: Pick<JsonSchema, 'format' | 'pattern'>;
  words: string;
}

/**
 * The formats of a text field that the form and the prototype API check, by their name in the
 * specification (JSON Schema's names, and `url` for `uri`). Any other format is a hint for display
 * only, and an OpenAPI import reports it as not checked.
 */
export const CHECKED_FORMATS: Readonly<Record<string, FormatCheck>> = {
  email: { schema: { format: 'email' }, words: 'an email address, such as ada@example.com' },
  url: { schema: { format: 'uri' }, words: 'a full address, such as https://example.com/' },
  uri: { schema: { format: 'uri' }, words: 'a full address, such as https://example.com/' },
  'uri-reference': { schema: { format: 'uri-reference' }, words: 'an address or a path' },
  'uri-template': { schema: { format: 'uri-template' }, words: 'an address template' },
  uuid: { schema: { format: 'uuid' }, words: 'a UUID, such as 3fa85f64-5717-4562-b3fc-2c963f66afa6' },
  hostname: { schema: { format: 'hostname' }, words: 'a host name, such as example.com' },
  ipv4: { schema: { format: 'ipv4' }, words: 'an IPv4 address, such as 192.0.2.1' },
  ipv6: { schema: { format: 'ipv6' }, words: 'an IPv6 address, such as 2001:db8::1' },
  time: { schema: { format: 'time' }, words: 'a time with its offset, such as 10:30:00Z' },
  duration: { schema: { format: 'duration' }, words: 'a duration, such as P3D or PT2H' },
  regex: { schema: { format: 'regex' }, words: 'a regular expression' },
  'json-pointer': { schema: { format: 'json-pointer' }, words: 'a JSON Pointer, such as /a/b' },
  'relative-json-pointer': { schema: { format: 'relative-json-pointer' }, words: 'a relative JSON Pointer' },
  // OpenAPI's base64 text: what JSON Schema leaves to the media type, a pattern checks.
  byte: {
    schema: { pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' },
    words: 'base64 text',
  },
};

/** The check of a format, if it is one the form and the prototype API make. */
export function formatCheck(format: string | undefined): FormatCheck | undefined {
  return format !== undefined && Object.hasOwn(CHECKED_FORMATS, format) ? CHECKED_FORMATS[format] : undefined;
}
