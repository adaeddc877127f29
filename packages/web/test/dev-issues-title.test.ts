// `ninefold dev` titles its issues by where they come from: a syntax error in the extension module once
// showed under "The specification has issues" (issue 45).
import type { DevIssue } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { devIssuesTitle } from '../src/app/dev-issues-title';
import { shell as english } from '../src/i18n/en/shell';
import { shell as french } from '../src/i18n/fr/shell';

const issue = (code: string): DevIssue => ({ severity: 'error', code, message: code });

describe('the title of dev’s issues', () => {
  it('names the extension module for its own issues, the specification for its, and both for both', () => {
    expect(devIssuesTitle([issue('extension-build')])).toBe('shell.devIssuesExtensionTitle');
    expect(devIssuesTitle([issue('unknown-override'), issue('extension-error')])).toBe(
      'shell.devIssuesExtensionTitle',
    );
    expect(devIssuesTitle([issue('syntax')])).toBe('shell.devIssuesTitle');
    expect(devIssuesTitle([issue('syntax'), issue('extension-build')])).toBe('shell.devIssuesBothTitle');
  });

  it('has words for each title in every language', () => {
    for (const key of ['devIssuesTitle', 'devIssuesExtensionTitle', 'devIssuesBothTitle'] as const) {
      expect(english[key]).toMatch(/\w/);
      expect(french[key]).toMatch(/\w/);
    }
  });
});
