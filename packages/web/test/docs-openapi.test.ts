import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readApiError } from '../src/data/problem-reader';

// docs/openapi.md read as a stranger reads it: every error answer its table shows must be read the way
// the table says, on the field it names. The table is the test's only source.
const doc = readFileSync(resolve(import.meta.dirname, '../../../docs/openapi.md'), 'utf8');

function tableAfter(heading: string): string[][] {
  const start = doc.indexOf(heading);
  if (start < 0) throw new Error(`docs/openapi.md has no "${heading}"`);
  const lines = doc.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');

describe('docs/openapi.md, errors from any server', () => {
  const rows = tableAfter('## Errors from any server');

  it('has a row for each shape it names', () => {
    expect(rows.length).toBeGreaterThanOrEqual(7);
  });

  for (const [answer = '', readAs = ''] of rows) {
    const bodies = code(answer).filter((text) => text.startsWith('{'));
    const field = code(readAs)[0];
    it(`reads ${bodies[0]?.slice(0, 60)}… as the table says`, async () => {
      for (const body of bodies) {
        const error = await readApiError(400, 'Bad Request', 'application/json', JSON.parse(body));
        if (field === undefined) {
          // "the message": the answer's words are kept for people.
          expect(error.detail ?? '').not.toBe('');
        } else {
          expect(error.fieldErrors.map((fieldError) => fieldError.pointer)).toContain(`/${field}`);
        }
      }
    });
  }
});
