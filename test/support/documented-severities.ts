import { readFileSync } from 'node:fs';
import type { Severity } from '@ninefold/model';

/**
 * The severities `docs/spec-format.md` promises for each issue code, read from its table of codes, so
 * that tests can hold what check prints to what the document says.
 */
export function documentedSeverities(): Map<string, ReadonlySet<Severity>> {
  const guide = readFileSync(new URL('../../docs/spec-format.md', import.meta.url), 'utf8');
  const found = new Map<string, ReadonlySet<Severity>>();
  for (const [, code, severity] of guide.matchAll(
    /^\| `([a-z-]+)` \| (error or warning|error|warning) \|/gm,
  )) {
    if (!code || !severity) continue;
    found.set(code, new Set(severity === 'error or warning' ? ['error', 'warning'] : [severity as Severity]));
  }
  return found;
}
