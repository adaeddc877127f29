// What `verify` found, as data: one result per check, each under the point whose words it checks.
import type { PointKey } from '@ninefold/model';
import type { SentRequest } from './http';

export type Outcome = 'agrees' | 'disagrees' | 'not-checked';

export interface CheckResult {
  point: PointKey;
  /** What was checked, in the specification's words ("a Trade customer may not create orders"). */
  check: string;
  outcome: Outcome;
  request?: SentRequest;
  /** The answer the specification calls for. */
  expected?: string;
  received?: { status: number; body?: unknown };
  /** Why a check was not made, or what else a reader should know. */
  note?: string;
}

export interface VerifyReport {
  api: string;
  results: CheckResult[];
  requests: number;
  /** Records verify made and could not remove, each as `Entity key`. */
  leftBehind: string[];
  /** Set when verify stopped early (a storm of server errors, an API it could not reach). */
  stopped?: string;
  seconds: number;
}

/** The points verify checks, in the order its report gives them. */
export const VERIFIED_POINTS: readonly PointKey[] = [
  'roles',
  'validation',
  'states',
  'errors',
  'constants',
  'calls',
];

/** The disagreements of a report: exit 1 when there is any. */
export function disagreements(report: VerifyReport): CheckResult[] {
  return report.results.filter((result) => result.outcome === 'disagrees');
}
