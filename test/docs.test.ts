import { readFileSync } from 'node:fs';
import { ISSUE_CODES } from '@ninefold/spec';
import { describe, expect, it } from 'vitest';

describe('docs/spec-format.md', () => {
  it('explains every issue code that check can print', () => {
    const guide = readFileSync(new URL('../docs/spec-format.md', import.meta.url), 'utf8');
    const missing = ISSUE_CODES.filter((code) => !guide.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
  });
});
