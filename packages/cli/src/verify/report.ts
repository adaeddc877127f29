// A verify report three ways: text a person reads, JSON, and JUnit XML for CI.
import { POINT_KEYS, POINT_NAMES } from '@ninefold/model';
import type { SentRequest } from './http';
import { type CheckResult, disagreements, VERIFIED_POINTS, type VerifyReport } from './results';

const pointTitle = (point: CheckResult['point']) => `${POINT_KEYS.indexOf(point) + 1}. ${POINT_NAMES[point]}`;

export function formatText(report: VerifyReport, spec: string): string {
  const lines = [`ninefold verify ${spec} against ${report.api}`, ''];
  for (const point of VERIFIED_POINTS) {
    const results = report.results.filter((r) => r.point === point);
    if (results.length === 0) continue;
    const count = (outcome: CheckResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
    const parts = [`${count('agrees')} agree`];
    if (count('disagrees')) parts.push(`${count('disagrees')} disagree`);
    if (count('not-checked')) parts.push(`${count('not-checked')} not checked`);
    lines.push(`${pointTitle(point)}: ${parts.join(', ')}`);
    for (const result of results.filter((r) => r.outcome === 'disagrees')) {
      lines.push(`  ✗ ${result.check}`);
      if (result.request) lines.push(`      sent      ${requestLine(result.request)}`);
      if (result.expected) lines.push(`      expected  ${result.expected}`);
      if (result.received)
        lines.push(`      received  ${result.received.status}${bodyText(result.received.body)}`);
      if (result.note) lines.push(`      note      ${result.note}`);
    }
    for (const result of results.filter((r) => r.outcome === 'not-checked')) {
      lines.push(`  – ${result.check}: not checked, ${result.note ?? ''}`);
    }
  }
  lines.push('');
  const rate = report.seconds > 0 ? Math.round(report.requests / report.seconds) : report.requests;
  lines.push(`${report.requests} requests in ${report.seconds.toFixed(1)} s (${rate} a second).`);
  if (report.leftBehind.length) {
    lines.push(`Left behind (could not be removed): ${report.leftBehind.join(', ')}.`);
  }
  if (report.stopped) lines.push(`Stopped early: ${report.stopped}.`);
  const wrong = disagreements(report).length;
  lines.push(
    wrong === 0
      ? report.stopped
        ? 'No disagreement before it stopped.'
        : 'No disagreement.'
      : `${wrong} disagreement${wrong === 1 ? '' : 's'}.`,
  );
  return `${lines.join('\n')}\n`;
}

function requestLine(request: SentRequest): string {
  return `${request.method} ${request.path} as ${request.as}${request.body === undefined ? '' : ` ${clip(JSON.stringify(request.body))}`}`;
}

function bodyText(body: unknown): string {
  if (body === undefined) return '';
  return ` ${clip(typeof body === 'string' ? body : JSON.stringify(body))}`;
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** JUnit XML: a test suite per point, a test case per check; a disagreement fails, a check not made is skipped. */
export function formatJunit(report: VerifyReport): string {
  const suites = VERIFIED_POINTS.map((point) => {
    const results = report.results.filter((r) => r.point === point);
    const failures = results.filter((r) => r.outcome === 'disagrees').length;
    const skipped = results.filter((r) => r.outcome === 'not-checked').length;
    const cases = results.map((r) => {
      const name = xml(r.check);
      if (r.outcome === 'agrees')
        return `    <testcase classname="${xml(pointTitle(point))}" name="${name}"/>`;
      if (r.outcome === 'not-checked') {
        return `    <testcase classname="${xml(pointTitle(point))}" name="${name}"><skipped message="${xml(r.note ?? '')}"/></testcase>`;
      }
      const detail = [
        r.request ? `sent ${requestLine(r.request)}` : '',
        r.expected ? `expected ${r.expected}` : '',
        r.received ? `received ${r.received.status}${bodyText(r.received.body)}` : '',
        r.note ?? '',
      ]
        .filter(Boolean)
        .join('\n');
      return `    <testcase classname="${xml(pointTitle(point))}" name="${name}"><failure message="${xml(r.expected ?? 'disagrees')}">${xml(detail)}</failure></testcase>`;
    });
    return `  <testsuite name="${xml(pointTitle(point))}" tests="${results.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ninefold verify" tests="${report.results.length}" failures="${disagreements(report).length}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function xml(text: string): string {
  // XML 1.0 has no place for control characters but tab and line ends: they are left out.
  const allowed = [...text].filter((c) => {
    const code = c.codePointAt(0) ?? 0;
    return code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 0xfffe && code !== 0xffff);
  });
  return allowed
    .join('')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
