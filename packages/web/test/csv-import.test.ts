// Reading a CSV file a person chose, and which column holds which field: each bad file gets a message
// that says what to do, never a crash (issue 20).
import { findEntity, type Principal } from '@ninefold/spec';
import { describe, expect, it } from 'vitest';
import { firstMatches, importTarget } from '../src/list/csv-import/import-plan';
import { readCsv } from '../src/list/csv-import/read-csv';
import { loadExample } from './support/load-example';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reading a CSV file', () => {
  it('reads a header and rows, with quotes, commas and new lines inside cells, and a byte order mark', () => {
    const read = readCsv(bytes('\uFEFFname,note\n"Quay, Ada","two\nlines"\nBo,"say ""hi"""\n\n'));
    expect(read).toEqual({
      ok: true,
      headers: ['name', 'note'],
      rows: [
        ['Quay, Ada', 'two\nlines'],
        ['Bo', 'say "hi"'],
      ],
    });
  });

  it('reads a file separated by semicolons or tabs, as spreadsheets in many languages save it', () => {
    expect(readCsv(bytes('name;email\nAda;ada@x.test'))).toMatchObject({
      ok: true,
      headers: ['name', 'email'],
    });
    expect(readCsv(bytes('name\temail\nAda\tada@x.test'))).toMatchObject({
      ok: true,
      headers: ['name', 'email'],
    });
  });

  it.each([
    ['an empty file', new Uint8Array(), 'The file is empty.'],
    ['blank lines only', bytes('\n\n  \n'), 'The file is empty.'],
    ['a header alone', bytes('name,email\n'), 'The file has a header row but no rows.'],
    [
      'Latin-1 bytes',
      new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x4a, 0xf6, 0x72, 0x67]),
      /not UTF-8 text \(byte 7 is not\)/,
    ],
    ['colons', bytes('name:email\nAda:ada@x.test'), /one column, "name:email".*other than commas/],
    [
      'a quote that never closes',
      bytes('name,email\n"Ada,ada@x.test\nBo,bo@x.test'),
      /Row 2: a quote opens and never closes/,
    ],
    [
      'a row of another width',
      bytes('name,email\nAda,ada@x.test,extra'),
      'Row 2 has 3 cells where the header has 2.',
    ],
  ])('refuses %s with what to do', (_name, input, message) => {
    const read = readCsv(input);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(message);
  });
});

describe('which column holds which field', () => {
  const model = loadExample('shop.yaml');
  const customer = findEntity(model, 'Customer');
  if (!customer) throw new Error('the shop has customers');
  const owner: Principal = { role: 'owner', user: { id: 'u1', role: 'owner' } };

  it('offers the fields the role may write, and matches on unique ones', () => {
    const target = importTarget(model, customer, owner);
    expect(target.writable.map((field) => field.name)).toEqual([
      'name',
      'email',
      'phone',
      'country',
      'creditLimit',
      'active',
      'tags',
    ]);
    expect(target.unique.map((field) => field.name)).toEqual(['id', 'email']);
  });

  it('matches columns by name, label, or the same words, each field once', () => {
    const target = importTarget(model, customer, owner);
    expect(firstMatches(target, ['Credit limit', 'E-mail address', 'NAME', 'name', 'Colour', 'id'])).toEqual([
      'creditLimit',
      'email',
      'name',
      undefined,
      undefined,
      'id',
    ]);
  });
});
