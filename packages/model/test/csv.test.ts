// The core's reading of CSV files (issue 40): numbers and dates as a country writes them, never read by a
// guess, and bytes decoded by one rule that never makes up a character.
import { describe, expect, it } from 'vitest';
import { decodeCsv, detectCsvFormat, readDate, readNumber } from '../src';

describe('a number as a file writes it', () => {
  it.each([
    ['36.500', ',', 36500],
    ['36.500', '.', 36.5],
    ['1 234,5', ',', 1234.5],
    ['1\u202f234,5', ',', 1234.5],
    ["1'234.5", '.', 1234.5],
    ['-1,234,567.8', '.', -1234567.8],
    ['+0,5', ',', 0.5],
    ['1.5e3', '.', 1500],
  ] as const)('reads %s with decimal %s as %d', (text, decimal, value) => {
    expect(readNumber(text, decimal)).toEqual({ ok: true, value });
  });

  it.each([
    ['12,5', '.'],
    ['12.5.0', '.'],
    ['1,23,456', '.'],
    ['12abc', ','],
    ['', '.'],
    ['1.234,5', '.'],
  ] as const)('refuses %s with decimal %s, naming the form', (text, decimal) => {
    const read = readNumber(text, decimal);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toContain(decimal === '.' ? '1,234.56' : '1.234,56');
  });
});

describe('a date as a file writes it', () => {
  it.each([
    ['31.12.2024', 'dmy', '2024-12-31'],
    ['12/31/2024', 'mdy', '2024-12-31'],
    ['2024/2/9', 'dmy', '2024-02-09'],
    ['2024-02-29', 'mdy', '2024-02-29'],
  ] as const)('reads %s in %s order as %s', (text, order, value) => {
    expect(readDate(text, order, false)).toEqual({ ok: true, value });
  });

  it('refuses a date that does not exist, a two-digit year, and a day-first date in a file of ISO dates', () => {
    expect(readDate('29.02.2023', 'dmy', false).ok).toBe(false);
    expect(readDate('31/12/24', 'dmy', false)).toMatchObject({ ok: false, message: /two-digit year/ });
    expect(readDate('31/12/2024', 'ymd', false)).toMatchObject({ ok: false, message: /YYYY-MM-DD/ });
  });

  it('reads a time after a local date as UTC, and an ISO time as it is', () => {
    expect(readDate('31.12.2024 9:05', 'dmy', true)).toEqual({ ok: true, value: '2024-12-31T09:05:00Z' });
    expect(readDate('2024-12-31T09:05:00+01:00', 'dmy', true)).toEqual({
      ok: true,
      value: '2024-12-31T09:05:00+01:00',
    });
  });
});

describe("a file's format, from its values", () => {
  it('is decided by a value only one format reads, and the larger count wins', () => {
    expect(
      detectCsvFormat({ numbers: ['36.500', '172.101,96'], dates: ['03/04/2024', '13/04/2024'] }),
    ).toEqual({
      format: { decimal: ',', dateOrder: 'dmy' },
      unsure: [],
    });
    expect(detectCsvFormat({ numbers: ['1,5', '2.5', '3.5'], dates: ['04/13/2024'] }).format).toEqual({
      decimal: '.',
      dateOrder: 'mdy',
    });
  });

  it('is unsure, with an example, when every value reads two ways', () => {
    expect(detectCsvFormat({ numbers: ['36.500', '1,250'], dates: ['03/04/2024'] }).unsure).toEqual([
      { part: 'decimal', example: '36.500' },
      { part: 'dateOrder', example: '03/04/2024' },
    ]);
    // Whole numbers and ISO dates leave nothing open.
    expect(detectCsvFormat({ numbers: ['12', '7'], dates: ['2024-03-04'] }).unsure).toEqual([]);
  });
});

describe('the bytes of a file', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);

  it('reads Windows-1252 as the Encoding Standard maps it, € and ’ included', () => {
    expect(decodeCsv(bytes(0x80, 0x20, 0x92, 0xfc))).toEqual({
      ok: true,
      text: '€ ’ü',
      encoding: 'windows-1252',
      source: 'spreadsheet',
    });
  });

  it('takes a byte order mark, then valid UTF-8, then the declared charset', () => {
    expect(decodeCsv(bytes(0xff, 0xfe, 0x41, 0x00))).toMatchObject({
      text: 'A',
      encoding: 'utf-16le',
      source: 'bom',
    });
    expect(decodeCsv(new TextEncoder().encode('Zoë'), { declared: 'latin1' })).toMatchObject({
      text: 'Zoë',
      encoding: 'utf-8',
    });
    expect(decodeCsv(bytes(0xa4), { declared: 'iso-8859-15' })).toMatchObject({
      text: '€',
      source: 'declared',
    });
  });

  it('tells UTF-16 written without its mark by its zero bytes, and says so', () => {
    expect(decodeCsv(bytes(0x4e, 0, 0x61, 0, 0x6d, 0, 0xe9, 0))).toEqual({
      ok: true,
      text: 'Namé',
      encoding: 'utf-16le',
      source: 'wide',
    });
  });

  it('refuses, with the byte and the line, what does not decode cleanly', () => {
    expect(decodeCsv(bytes(0x41, 0x0a, 0xfc), { declared: 'utf-8' })).toMatchObject({
      ok: false,
      code: 'BAD_ENCODING',
      message: expect.stringMatching(/byte 3 \(line 2\)/),
    });
    expect(decodeCsv(bytes(0xa4))).toMatchObject({ ok: false, message: expect.stringMatching(/"¤".*"€"/) });
    expect(decodeCsv(bytes(0xfc), { declared: 'klingon' })).toMatchObject({
      ok: false,
      code: 'UNKNOWN_CHARSET',
    });
  });
});
