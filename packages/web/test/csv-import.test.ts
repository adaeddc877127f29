// Reading a CSV file a person chose, and which column holds which field: each bad file gets a message
// that says what to do, never a crash (issue 20).
import { findEntity, type Principal } from '@ninefold/model';
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
      encoding: 'utf-8',
      encodingSource: 'bom',
      delimiter: ',',
      headers: ['name', 'note'],
      rows: [
        { row: 2, cells: ['Quay, Ada', 'two\nlines'] },
        { row: 3, cells: ['Bo', 'say "hi"'] },
      ],
      faults: [],
    });
  });

  it('reads a file separated by semicolons or tabs, as spreadsheets in many languages save it', () => {
    expect(readCsv(bytes('name;email\nAda;ada@x.test'))).toMatchObject({
      ok: true,
      delimiter: ';',
      headers: ['name', 'email'],
    });
    expect(readCsv(bytes('name\temail\nAda\tada@x.test'))).toMatchObject({
      ok: true,
      delimiter: '\t',
      headers: ['name', 'email'],
    });
  });

  it('reads Windows-1252 bytes as a spreadsheet wrote them, and a separator or encoding the person chose', () => {
    const latin = new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x4a, 0xf6, 0x72, 0x67]);
    expect(readCsv(latin)).toMatchObject({
      ok: true,
      encoding: 'windows-1252',
      rows: [{ row: 2, cells: ['Jörg'] }],
    });
    expect(readCsv(bytes('a;b\n1;2'), { delimiter: ',' })).toMatchObject({ ok: true, headers: ['a;b'] });
    // "Ã¶" is "ö" in UTF-8 read as Windows-1252: what the person sees, and may choose.
    expect(readCsv(bytes('name\nJörg'), { encoding: 'windows-1252' })).toMatchObject({
      ok: true,
      rows: [{ row: 2, cells: ['JÃ¶rg'] }],
    });
  });

  it('lists every row of another width, with its row number, and reads the others', () => {
    const read = readCsv(bytes('name,email\nAda,ada@x.test,extra\n\nBo\nCy,cy@x.test,,\nDi,di@x.test'));
    expect(read).toMatchObject({
      ok: true,
      rows: [
        { row: 5, cells: ['Cy', 'cy@x.test'] },
        { row: 6, cells: ['Di', 'di@x.test'] },
      ],
      faults: [
        { row: 2, message: 'Row 2 has 3 cells where the header has 2.' },
        { row: 4, message: 'Row 4 has 1 cell where the header has 2.' },
      ],
    });
  });

  it.each([
    ['an empty file', new Uint8Array(), 'The file is empty.'],
    ['blank lines only', bytes('\n\n  \n'), 'The file is empty.'],
    ['a header alone', bytes('name,email\n'), 'The file has a header row but no rows.'],
    [
      'UTF-8 with a stray byte',
      new Uint8Array([...bytes('name\nJörg\n'), 0x4a, 0xf6, 0x72, 0x67]),
      /UTF-8 in places, but byte 13 \(line 3\) is not/,
    ],
    [
      'a quote that never closes',
      bytes('name,email\n"Ada,ada@x.test\nBo,bo@x.test'),
      /Row 2: a quote opens and never closes/,
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
