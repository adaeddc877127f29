// A value the form copies from a referenced record (`copyFrom: part.price`, point 3), on a bike workshop
// of our own: the one good spelling, and every way to get it wrong.

import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load';
import { toMarkdown } from '../src/markdown/write';

function workshop(repairLine: string): string {
  return `title: Spokes & Sprockets
product: not shown
screens: not shown
states: not shown
validation: not shown
roles: not shown
calls: not shown
errors: not shown
constants: not shown
entities:
  Part:
    key: id
    display: name
    fields:
      id: { kind: integer, readOnly: true }
      name: { kind: text }
      price: { kind: money, currency: EUR }
      stock: { kind: integer }
      code: { kind: text }
  Repair:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      lines: { kind: list, of: { kind: object, entity: RepairLine } }
  RepairLine:
    embedded: true
    fields:
      part: { kind: reference, entity: Part }
      hours: { kind: number }
${repairLine}
`;
}

function issuesOf(repairLine: string): string[] {
  const loaded = loadSpec(workshop(repairLine), { file: 'workshop.yaml' });
  return loaded.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.message);
}

describe('a value copied from a referenced record (and the other layout words of point 3)', () => {
  it('is read from YAML and Markdown alike, and written back', () => {
    // With a group and an internal field beside it: point 3's other layout words travel the same way.
    const lines = [
      '      charged: { kind: money, currency: EUR, copyFrom: part.price, group: Billing }',
      '      syncId: { kind: text, internal: true }',
    ].join('\n');
    const loaded = loadSpec(workshop(lines), {
      file: 'workshop.yaml',
    });
    expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    const line = loaded.model?.entities.shown
      ? loaded.model.entities.items.find((e) => e.name === 'RepairLine')
      : undefined;
    expect(line?.fields.find((field) => field.name === 'charged')?.copyFrom).toBe('part.price');
    const markdown = toMarkdown(loaded.model as NonNullable<typeof loaded.model>);
    expect(markdown.text).toContain('| Copy from |');
    expect(markdown.lost).toEqual([]);
    const again = loadSpec(markdown.text, { file: 'workshop.md' });
    const lineAgain = again.model?.entities.shown
      ? again.model.entities.items.find((e) => e.name === 'RepairLine')
      : undefined;
    expect(lineAgain?.fields.find((field) => field.name === 'charged')?.copyFrom).toBe('part.price');
    expect(lineAgain?.fields.find((field) => field.name === 'charged')?.group).toBe('Billing');
    expect(lineAgain?.fields.find((field) => field.name === 'syncId')?.internal).toBe(true);
  });

  it('takes numbers of any kind into a number, and the same kind otherwise', () => {
    expect(issuesOf('      units: { kind: number, copyFrom: part.stock }')).toEqual([]);
    expect(issuesOf('      code: { kind: text, copyFrom: part.code }')).toEqual([]);
  });

  it.each([
    ['      charged: { kind: money, currency: EUR, copyFrom: price }', /must be a reference and a field/],
    [
      '      charged: { kind: money, currency: EUR, copyFrom: part.price.amount }',
      /must be a reference and a field/,
    ],
    ['      charged: { kind: money, currency: EUR, copyFrom: tool.price }', /names field "tool"/],
    ['      charged: { kind: money, currency: EUR, copyFrom: hours.price }', /is no reference/],
    ['      charged: { kind: money, currency: EUR, copyFrom: part.weight }', /names field "weight"/],
    [
      '      charged: { kind: text, copyFrom: part.price }',
      /copies "Part.price" \(money\) into a text field/,
    ],
    [
      '      charged: { kind: money, currency: EUR, readOnly: true, copyFrom: part.price }',
      /cannot be read only or derived/,
    ],
  ])('refuses %s', (line, message) => {
    const found = issuesOf(line);
    expect(
      found.some((text) => message.test(text)),
      found.join('\n'),
    ).toBe(true);
  });
});
