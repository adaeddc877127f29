// A CSV file's bytes as text. One rule for the client and the API alike, so that a file the one refuses
// the other refuses too, and no decoder ever puts a replacement character into a value in silence: every
// decoder here is fatal, and a file that does not decode cleanly is refused with where it breaks.

/** The encodings a file is read in: what spreadsheets write. */
export const CSV_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-15'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** How the encoding was settled, for the person to see and correct. */
/** `wide`: UTF-16 without a mark, told by its zero bytes. */
export type CsvEncodingSource = 'bom' | 'wide' | 'utf-8' | 'declared' | 'chosen' | 'spreadsheet';

export type CsvDecoded =
  | { ok: true; text: string; encoding: CsvEncoding; source: CsvEncodingSource }
  | { ok: false; code: 'BAD_ENCODING' | 'NOT_TEXT' | 'UNKNOWN_CHARSET'; message: string };

export interface DecodeOptions {
  /** The charset the sender declared (an HTTP `charset`): used when the bytes are not UTF-8. */
  declared?: string;
  /** The encoding a person chose: it wins over everything but a byte order mark. */
  chosen?: CsvEncoding;
}

/**
 * The text of a CSV file. The encoding is, in order: a byte order mark; UTF-8 when every byte is valid
 * UTF-8; the declared charset; else Windows-1252, as spreadsheets write "CSV" on Windows. A file that is
 * UTF-8 in places and broken in others is refused (two encodings mixed, or a damaged file): reading it as
 * Windows-1252 would turn every accent it has into two wrong letters.
 *
 * @example
 * decodeCsv(Uint8Array.from([0x4a, 0xfc, 0x72])); // { ok: true, text: 'Jür', encoding: 'windows-1252', source: 'spreadsheet' }
 * decodeCsv(bytes, { declared: 'utf-8' }); // { ok: false, code: 'BAD_ENCODING', message: 'The file is not UTF-8: byte 12 (line 2) is not …' }
 */
export function decodeCsv(bytes: Uint8Array, options: DecodeOptions = {}): CsvDecoded {
  const bom = bomOf(bytes);
  if (bom) return finish(bytes.subarray(bom.length), bom.encoding, 'bom', bom.length);
  if (options.chosen) return finish(bytes, options.chosen, 'chosen', 0);
  const wide = utf16WithoutMark(bytes);
  if (wide) return finish(bytes, wide, 'wide', 0);
  const utf8 = tryDecode(bytes, 'utf-8');
  if (utf8 !== undefined) return text(utf8, 'utf-8', 'utf-8');
  const declared = options.declared?.trim().toLowerCase();
  if (declared) {
    const encoding = encodingOf(declared);
    if (!encoding) {
      return {
        ok: false,
        code: 'UNKNOWN_CHARSET',
        message: `The charset "${declared.slice(0, 40)}" is not one this import reads: it reads ${CSV_ENCODINGS.join(', ')}.`,
      };
    }
    return finish(bytes, encoding, 'declared', 0);
  }
  // Valid UTF-8 sequences beside invalid bytes: not a Windows-1252 file, whose accents are single bytes.
  if (hasUtf8Sequences(bytes)) {
    const at = firstBadByte(bytes, 'utf-8', 0);
    return {
      ok: false,
      code: 'BAD_ENCODING',
      message: `The file is UTF-8 in places, but byte ${at.toLocaleString('en')} (line ${lineOf(bytes, at, 'utf-8')}) is not: two encodings are mixed in it, or it is damaged. Save it again as "CSV UTF-8".`,
    };
  }
  // The one byte Windows-1252 and ISO-8859-15 read as two signs a file plausibly holds: ¤ or €.
  const euro = bytes.indexOf(0xa4);
  if (euro >= 0) {
    return {
      ok: false,
      code: 'BAD_ENCODING',
      message: `The file is not UTF-8, and byte ${(euro + 1).toLocaleString('en')} (line ${lineOf(bytes, euro + 1, 'windows-1252')}) is "¤" in Windows-1252 but "€" in ISO-8859-15: say which encoding the file is in.`,
    };
  }
  return finish(bytes, 'windows-1252', 'spreadsheet', 0);
}

/** An encoding named by one of its usual labels (`latin1`, `cp1252`, `utf8`…), if this import reads it. */
export function encodingOf(label: string): CsvEncoding | undefined {
  let name: string;
  try {
    name = new TextDecoder(label.trim().toLowerCase()).encoding;
  } catch {
    return undefined;
  }
  return (CSV_ENCODINGS as readonly string[]).includes(name) ? (name as CsvEncoding) : undefined;
}

function finish(
  bytes: Uint8Array,
  encoding: CsvEncoding,
  source: CsvEncodingSource,
  offset: number,
): CsvDecoded {
  const decoded = tryDecode(bytes, encoding);
  if (decoded === undefined) {
    const at = firstBadByte(bytes, encoding, offset);
    return {
      ok: false,
      code: 'BAD_ENCODING',
      message: `The file is not ${NAMES[encoding]} text: byte ${at.toLocaleString('en')} (line ${lineOf(bytes, at - offset, encoding)}) is not. Choose the file's encoding, or save it again as "CSV UTF-8".`,
    };
  }
  return text(decoded, encoding, source);
}

function text(decoded: string, encoding: CsvEncoding, source: CsvEncodingSource): CsvDecoded {
  const zero = decoded.indexOf('\u0000');
  if (zero >= 0) {
    const line = decoded.slice(0, zero).split('\n').length;
    return {
      ok: false,
      code: 'NOT_TEXT',
      message: `The file is not text as ${NAMES[encoding]}: line ${line} holds a zero byte. Save it as CSV.`,
    };
  }
  return { ok: true, text: decoded, encoding, source };
}

const NAMES: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  'windows-1252': 'Windows-1252',
  'iso-8859-15': 'ISO-8859-15',
};

function bomOf(bytes: Uint8Array): { encoding: CsvEncoding; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/** UTF-16 written without a mark: text in Latin letters is every other byte zero. */
function utf16WithoutMark(bytes: Uint8Array): CsvEncoding | undefined {
  const sample = bytes.subarray(0, Math.min(bytes.length, 1024) & ~1);
  if (sample.length < 4) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let index = 0; index < sample.length; index += 2) {
    if (sample[index] === 0) evenZero++;
    if (sample[index + 1] === 0) oddZero++;
  }
  const pairs = sample.length / 2;
  if (oddZero > pairs * 0.3 && evenZero === 0) return 'utf-16le';
  if (evenZero > pairs * 0.3 && oddZero === 0) return 'utf-16be';
  return undefined;
}

/**
 * Windows-1252's signs for bytes 0x80 to 0x9F, as the Encoding Standard maps them (five are unassigned
 * and stay the control characters of their code). Node's own decoder reads these bytes as Latin-1's
 * controls, so "€" would become U+0080: this one table serves the client and the API alike.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function windows1252(bytes: Uint8Array): string {
  // Latin-1 is one byte to one sign, fast everywhere; what differs from Windows-1252 (0x80 to 0x9F) is
  // then put right. In a browser, whose decoder maps them already, there is nothing left to put right.
  return new TextDecoder('windows-1252')
    .decode(bytes)
    .replace(/[\u0080-\u009f]/g, (sign) => WINDOWS_1252_HIGH.charAt(sign.charCodeAt(0) - 0x80));
}

function tryDecode(bytes: Uint8Array, encoding: CsvEncoding): string | undefined {
  if (encoding === 'windows-1252') return windows1252(bytes);
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The 1-based offset in the file of the first byte that does not decode: a few halvings, not a scan. */
function firstBadByte(bytes: Uint8Array, encoding: CsvEncoding, offset: number): number {
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    try {
      const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
      decoder.decode(bytes.subarray(0, middle), { stream: true });
      good = middle;
    } catch {
      bad = middle;
    }
  }
  return offset + bad;
}

function lineOf(bytes: Uint8Array, at: number, encoding: CsvEncoding): number {
  const before = new TextDecoder(encoding, { ignoreBOM: true }).decode(
    bytes.subarray(0, Math.max(0, at - 1)),
  );
  return before.split('\n').length;
}

/** Whether the bytes hold a well-formed multi-byte UTF-8 sequence. */
function hasUtf8Sequences(bytes: Uint8Array): boolean {
  for (let index = 0; index < bytes.length; index++) {
    const lead = bytes[index] as number;
    const length =
      lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
    if (length === 0) continue;
    let whole = index + length <= bytes.length;
    for (let next = 1; whole && next < length; next++) {
      const byte = bytes[index + next] as number;
      whole = byte >= 0x80 && byte <= 0xbf;
    }
    if (whole) return true;
  }
  return false;
}
