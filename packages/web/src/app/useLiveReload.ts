import type { DevIssue } from '@ninefold/model';
import { useEffect, useState } from 'react';

/** The path `ninefold dev` sends change events on (server-sent events). */
export const LIVE_RELOAD_PATH = '/_ninefold/events';

/**
 * In `ninefold dev`: reloads the page when the specification changes, and returns the issues as the
 * server last told them without a reload (undefined until it does). An extension module is replaced in
 * place by the bundler, so what its change broke or fixed comes this way, and the page keeps its state.
 */
export function useLiveReload(enabled: boolean): readonly DevIssue[] | undefined {
  const [issues, setIssues] = useState<readonly DevIssue[]>();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const events = new EventSource(LIVE_RELOAD_PATH);
    events.addEventListener('reload', () => window.location.reload());
    events.addEventListener('issues', (event) => {
      const told = readIssues(event.data);
      if (told) setIssues(told);
    });
    return () => events.close();
  }, [enabled]);
  return issues;
}

/** The issues of an event, or undefined when its data is not a list of them. */
export function readIssues(data: unknown): DevIssue[] | undefined {
  if (typeof data !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const issues: DevIssue[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { severity, message, code, source } = item as Record<string, unknown>;
    if ((severity !== 'error' && severity !== 'warning') || typeof message !== 'string') return undefined;
    issues.push({
      severity,
      message,
      code: typeof code === 'string' ? code : 'dev-issue',
      ...(typeof source === 'string' ? { source } : {}),
    });
  }
  return issues;
}
