import { describe, expect, it } from 'vitest';
import { readIssues } from '../src/app/useLiveReload';

describe('the issues dev tells an open page without a reload', () => {
  it('reads a list of issues, and refuses anything else rather than showing it', () => {
    const issues = [
      { severity: 'error', code: 'extension-build', message: 'Unexpected token', source: 'ui.tsx:4:12' },
      { severity: 'warning', message: 'no code given' },
    ];
    expect(readIssues(JSON.stringify(issues))).toEqual([
      issues[0],
      { severity: 'warning', code: 'dev-issue', message: 'no code given' },
    ]);
    expect(readIssues('[]')).toEqual([]);
    for (const bad of [
      '{',
      '{}',
      '[{"severity":"fatal","message":"x"}]',
      '[{"severity":"error"}]',
      '[null]',
    ]) {
      expect(readIssues(bad)).toBeUndefined();
    }
    expect(readIssues(undefined)).toBeUndefined();
  });
});
