// CSV files as spreadsheets in many countries write them, generated with what each row means: the
// oracle is the generator's own values, never what the code under test reads. Each file has known bad
// rows (a row of another width, a number that is none, a date that does not exist, a repeated unique
// value, a number in the other country's form) and a blank line that still counts as a row.

export type FileEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'windows-1252' | 'iso-8859-15';

export interface Variant {
  encoding: FileEncoding;
  delimiter: ',' | ';' | '\t';
  decimal: '.' | ',';
  dateOrder: 'ymd' | 'dmy' | 'mdy';
  eol: '\n' | '\r\n';
}

export interface Member {
  name: string;
  email: string;
  dues: number;
  boats: number;
  joined: string;
  note: string;
}

export interface GeneratedFile {
  bytes: Uint8Array;
  /** The charset a sender must name: a file in ISO-8859-15 cannot be told from Windows-1252 by its bytes. */
  charset?: string;
  good: Member[];
  bad: Array<{ row: number; reason: RegExp }>;
  /** Rows below the header, blank lines not counted. */
  rows: number;
}

export const ENCODINGS: FileEncoding[] = ['utf-8', 'utf-8-bom', 'utf-16le', 'windows-1252', 'iso-8859-15'];
export const DELIMITERS: Variant['delimiter'][] = [',', ';', '\t'];
export const DECIMALS: Variant['decimal'][] = ['.', ','];
export const DATE_ORDERS: Variant['dateOrder'][] = ['ymd', 'dmy', 'mdy'];

const NAMES = [
  'Jürgen Müller',
  'Zoë Çelik',
  'Åsa Øberg',
  'Renée Dupré',
  'Björn Weiß',
  'Íñigo Peña',
  'Chloé Noël',
  'Plain Smith',
];
const DUES = [36500, 172101.96, 0.5, 1234.5, 12, 980.25, 2000000, 7];
const BOATS = [1, 1200, 0, 3, 45, 2, 10000, 5];
const JOINED = [
  '2024-12-31',
  '2024-03-04',
  '1999-01-13',
  '2020-02-29',
  '2024-07-07',
  '2010-10-20',
  '2001-05-06',
  '2023-11-30',
];
const NOTES = [
  'Cox, mostly',
  'Says "hi"',
  'Paid € 5 late',
  '',
  'two\nlines',
  'Plain',
  '=1+1',
  'Zoë’s friend',
];

/** Every variant: encodings × separators × decimal marks × date orders × line ends. */
export function allVariants(): Variant[] {
  const variants: Variant[] = [];
  for (const encoding of ENCODINGS)
    for (const delimiter of DELIMITERS)
      for (const decimal of DECIMALS)
        for (const dateOrder of DATE_ORDERS)
          for (const eol of ['\n', '\r\n'] as const)
            variants.push({ encoding, delimiter, decimal, dateOrder, eol });
  return variants;
}

export function variantName(variant: Variant): string {
  const delimiter = { ',': 'comma', ';': 'semicolon', '\t': 'tab' }[variant.delimiter];
  const decimal = variant.decimal === '.' ? 'decimal-point' : 'decimal-comma';
  return `${variant.encoding} ${delimiter} ${decimal} ${variant.dateOrder} ${variant.eol === '\n' ? 'LF' : 'CRLF'}`;
}

/** A file of the variant; `tag` makes its emails its own, so that many files share a table. */
export function generateFile(variant: Variant, tag: string): GeneratedFile {
  const good: Member[] = NAMES.map((name, index) => ({
    name,
    email: `m${index}.${tag}@club.test`,
    dues: DUES[index] as number,
    boats: BOATS[index] as number,
    joined: JOINED[index] as string,
    note: NOTES[index] as string,
  }));
  const header = ['Name', 'Email', 'Dues', 'Boats', 'Joined', 'Note'];
  const line = (member: Member) => [
    member.name,
    member.email,
    number(member.dues, variant.decimal),
    number(member.boats, variant.decimal),
    date(member.joined, variant),
    member.note,
  ];
  const other: Variant['decimal'] = variant.decimal === '.' ? ',' : '.';
  const records: string[][] = [header];
  const bad: GeneratedFile['bad'] = [];
  let row = 1;
  const push = (cells: string[]) => {
    records.push(cells);
    row++;
  };
  for (const [index, member] of good.entries()) {
    push(line(member));
    if (index === 1) {
      push(line({ ...member, email: `w.${tag}@club.test` }).slice(0, 5));
      bad.push({ row, reason: new RegExp(`^Row ${row} has 5 cells where the header has 6\\.$`) });
    }
    if (index === 2) {
      push([
        ...line({ ...member, email: `n.${tag}@club.test` }).slice(0, 2),
        '12abc',
        ...line(member).slice(3),
      ]);
      bad.push({ row, reason: /^Dues is not a number written as .*: "12abc"\.$/ });
      // A blank line: no row, but the rows after it keep their numbers in the file.
      records.push(['']);
      row++;
    }
    if (index === 3) {
      const impossible = { ...member, email: `d.${tag}@club.test`, joined: '2023-02-29' };
      push(line(impossible));
      bad.push({ row, reason: /^Joined is not a date written as / });
    }
    if (index === 4) {
      push(
        line({ ...member, name: 'Copy Cat' }).map((cell, at) =>
          at === 1 ? (good[0] as Member).email : cell,
        ),
      );
      bad.push({ row, reason: /^Email is the same as in row 2 of this file\.$/ });
    }
    if (index === 5) {
      // "12,5" in a file of decimal points (or "12.5" in one of commas) is neither 125 nor 12.5 here.
      const cells = line({ ...member, email: `x.${tag}@club.test` });
      cells[2] = `12${other}5`;
      push(cells);
      bad.push({ row, reason: /^Dues is not a number written as / });
    }
  }
  const text =
    records
      .map((cells) => cells.map((cell) => quoted(cell, variant.delimiter)).join(variant.delimiter))
      .join(variant.eol) + variant.eol;
  return {
    bytes: encode(text, variant.encoding),
    ...(variant.encoding === 'iso-8859-15' ? { charset: 'iso-8859-15' } : {}),
    good,
    bad,
    rows: good.length + bad.length,
  };
}

function number(value: number, decimal: '.' | ','): string {
  const [whole = '', fraction] = (Math.round(value * 100) / 100).toFixed(2).replace(/\.00$/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, decimal === '.' ? ',' : '.');
  return fraction === undefined ? grouped : `${grouped}${decimal}${fraction.replace(/0$/, '')}`;
}

function date(iso: string, variant: Variant): string {
  const [year, month, day] = iso.split('-');
  const mark = variant.delimiter === ';' ? '.' : '/';
  switch (variant.dateOrder) {
    case 'ymd':
      return iso;
    case 'dmy':
      return `${day}${mark}${month}${mark}${year}`;
    case 'mdy':
      return `${month}/${day}/${year}`;
  }
}

function quoted(cell: string, delimiter: string): string {
  return /["\r\n]/.test(cell) || cell.includes(delimiter) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

const LATIN: Record<FileEncoding & ('windows-1252' | 'iso-8859-15'), Record<string, number>> = {
  'windows-1252': { '€': 0x80, '’': 0x92 },
  'iso-8859-15': { '€': 0xa4 },
};

function encode(text: string, encoding: FileEncoding): Uint8Array {
  switch (encoding) {
    case 'utf-8':
      return new TextEncoder().encode(text);
    case 'utf-8-bom':
      return new TextEncoder().encode(`\uFEFF${text}`);
    case 'utf-16le': {
      const bytes = new Uint8Array(2 + text.length * 2);
      bytes.set([0xff, 0xfe]);
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        bytes[2 + index * 2] = code & 0xff;
        bytes[3 + index * 2] = code >> 8;
      }
      return bytes;
    }
    case 'windows-1252':
    case 'iso-8859-15': {
      // ISO-8859-15 has no ’: the file writes ' where a Windows spreadsheet would write ’.
      const source = encoding === 'iso-8859-15' ? text.replaceAll('’', "'") : text;
      return Uint8Array.from([...source].map((char) => LATIN[encoding][char] ?? latinByte(char)));
    }
  }
}

function latinByte(char: string): number {
  const code = char.charCodeAt(0);
  if (code > 0xff) throw new Error(`the generator wrote "${char}", which no Latin encoding here holds`);
  return code;
}

/** A member as a file in `encoding` stores it (ISO-8859-15 has no ’). */
export function asStored(member: Member, encoding: FileEncoding): Member {
  return encoding === 'iso-8859-15' ? { ...member, note: member.note.replaceAll('’', "'") } : member;
}
