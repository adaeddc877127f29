import { type Body, exhaustiveSwitchError } from '@ninefold/model';

/** A request body ready for `fetch`, with the content type to send (none for FormData: fetch sets it). */
export interface EncodedBody {
  body: string | URLSearchParams | FormData;
  contentType?: string;
}

/** Raised for values a body encoding cannot carry (a file in a JSON body): a programmer error. */
export class BodyEncodingError extends Error {
  override readonly name = 'BodyEncodingError';
}

/**
 * Encodes field values as the call's body says. Only `body.fields` are sent when the call names them;
 * undefined values are left out.
 *
 * The convention for `form` and `multipart` (the prototype API reads it back by each field's kind):
 * - a `File` or `Blob` is a file part (multipart only), named by the file's name;
 * - a string, number or boolean is a text part with its text (`true`/`false` for booleans);
 * - `null` is an empty text part, which clears the field;
 * - an object or a list (an address, order lines, a kept file descriptor) is a text part holding JSON.
 *
 * @example
 * ```ts
 * encodeBody({ entity: 'Order', encoding: 'multipart' }, { customer: 3, lines: [], attachment: file });
 * // FormData: customer=3, lines=[], attachment=<file part po.pdf>
 * ```
 */
export function encodeBody(body: Body | undefined, values: Record<string, unknown>): EncodedBody {
  const sent = pickFields(values, body?.fields);
  const encoding = body?.encoding ?? 'json';
  switch (encoding) {
    case 'json': {
      for (const [name, value] of Object.entries(sent)) {
        if (isBlob(value)) throw new BodyEncodingError(`${name} is a file; a JSON body cannot carry it.`);
      }
      return { body: JSON.stringify(sent), contentType: 'application/json' };
    }
    case 'form': {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(sent)) {
        if (isBlob(value))
          throw new BodyEncodingError(`${name} is a file; a form-encoded body cannot carry it.`);
        form.append(name, partText(value));
      }
      return { body: form, contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
    }
    case 'multipart': {
      const form = new FormData();
      for (const [name, value] of Object.entries(sent)) {
        if (isBlob(value)) form.append(name, value, fileName(value));
        else form.append(name, partText(value));
      }
      return { body: form };
    }
    default:
      return exhaustiveSwitchError(encoding);
  }
}

function pickFields(values: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (fields && !fields.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** The text of a non-file part, by the convention above. */
export function partText(value: unknown): string {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString();
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      return JSON.stringify(value) ?? '';
  }
}

export function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

function fileName(blob: Blob): string {
  const name = (blob as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : 'file';
}
