import { readFileSync } from 'node:fs';
import { ISSUE_CODES } from '@ninefold/spec';
import { describe, expect, it } from 'vitest';
import { documentedSeverities } from './support/documented-severities';

describe('docs/spec-format.md', () => {
  it('explains every issue code that check can print, and says whether it is an error or a warning', () => {
    const guide = readFileSync(new URL('../docs/spec-format.md', import.meta.url), 'utf8');
    const missing = ISSUE_CODES.filter((code) => !guide.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
    const severities = documentedSeverities();
    expect(ISSUE_CODES.filter((code) => !severities.has(code))).toEqual([]);
    expect(severities.get('missing-point')).toEqual(new Set(['error']));
    expect(severities.get('unoffered-grant')).toEqual(new Set(['warning']));
  });
});
