import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load';
import type { Model } from '../src/model';
import { CHECKED_FORMATS } from '../src/rules/formats';
import { validateRecord } from '../src/rules/validate';

// Every format the form and the prototype API check, met and broken, on a domain of our own (a
// network inventory), and one format that is only a display hint.
const inventory = (): Model => {
  const text = readFileSync(new URL('./fixtures/network-inventory.yaml', import.meta.url), 'utf8');
  const result = loadSpec(text, { file: 'network-inventory.yaml' });
  if (!result.model) throw new Error(JSON.stringify(result.issues));
  return result.model;
};
const model = inventory();
const check = (values: Record<string, unknown>) =>
  validateRecord(model, 'Device', { hostname: 'core-1.example.net', ...values }, { mode: 'create' });

const cases: Array<{ field: string; format: string; met: string; broken: string }> = [
  { field: 'hostname', format: 'hostname', met: 'edge-2.example.net', broken: 'not a host!' },
  { field: 'managementIp', format: 'ipv4', met: '192.0.2.10', broken: '192.0.2.300' },
  { field: 'managementIp6', format: 'ipv6', met: '2001:db8::1', broken: '2001:db8:::1:x' },
  { field: 'owner', format: 'email', met: 'noc@example.net', broken: 'noc at example' },
  { field: 'runbook', format: 'url', met: 'https://wiki.example.net/core', broken: 'wiki page' },
  { field: 'serial', format: 'uuid', met: '3fa85f64-5717-4562-b3fc-2c963f66afa6', broken: '3fa85f64' },
  { field: 'config', format: 'byte', met: 'aG9zdG5hbWUgY29yZS0x', broken: 'hostname core-1' },
  { field: 'maintenanceWindow', format: 'duration', met: 'PT2H', broken: 'two hours' },
  { field: 'backupAt', format: 'time', met: '02:30:00Z', broken: '25:61' },
];

describe('format checks', () => {
  it('cover every format the fixture names that CHECKED_FORMATS lists', () => {
    expect(cases.every((c) => Object.hasOwn(CHECKED_FORMATS, c.format))).toBe(true);
  });

  it.each(cases)('accept a $format value that meets the format', ({ field, met }) => {
    expect(check({ [field]: met })).toMatchObject({ ok: true });
  });

  it.each(cases)(
    'refuse a $format value that breaks it, in words that say what is wanted',
    ({ field, format, broken }) => {
      const result = check({ [field]: broken });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors).toEqual([
        expect.objectContaining({
          pointer: `/${field}`,
          message: expect.stringContaining(CHECKED_FORMATS[format]?.words ?? '?'),
        }),
      ]);
    },
  );

  it('check a format pattern beside the field’s own pattern, and leave display hints alone', () => {
    expect(check({ tag: 'QUJD' })).toMatchObject({ ok: true });
    // Base64, but not starting with a capital: the field's own pattern.
    expect(check({ tag: 'cXVpdA==' }).ok).toBe(false);
    // A capital, but not base64: the format's pattern.
    expect(check({ tag: 'A tag' }).ok).toBe(false);
    expect(check({ oncall: 'call the desk' })).toMatchObject({ ok: true });
  });
});
