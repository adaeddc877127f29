// Specifications (and the peer's JSON Schema) for the client benchmarks, generated so that both sides of
// a comparison come from one description.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const SHOP = fileURLToPath(new URL('../examples/shop.yaml', import.meta.url));

/** Rows the list benchmark waits for: one full page. */
export const LIST_PAGE_SIZE = 50;

/**
 * The demo (examples/shop.yaml) with a page size of 50 and without sign-in: the list screen under test
 * is the demo's orders list, reachable without a session. Roles are removed from screens and
 * transitions too, since they would name roles that no longer exist.
 */
export function listSpecYaml(): string {
  const spec = parse(readFileSync(SHOP, 'utf8')) as Record<string, unknown> & {
    screens: Record<string, Record<string, unknown>>;
    states: Record<string, { transitions?: Record<string, Record<string, unknown>> }>;
    constants: Record<string, unknown>;
  };
  delete spec.$schema;
  // Words no list or record page of the benchmark shows, left out so that an earlier checkout (a
  // baseline) reads the same specification: the French words and the dashboard's figures (issue 21).
  delete (spec.product as { translations?: unknown }).translations;
  for (const screen of Object.values(spec.screens)) delete screen.figures;
  spec.title = 'Harbor Supply (list benchmark)';
  spec.roles = 'not shown';
  for (const screen of Object.values(spec.screens)) delete screen.roles;
  delete spec.screens['sign-in'];
  const signIn = (spec.calls as { operations: Record<string, unknown> }).operations;
  delete signIn.signIn;
  for (const machine of Object.values(spec.states))
    for (const transition of Object.values(machine.transitions ?? {})) delete transition.roles;
  spec.constants.PAGE_SIZE = {
    value: LIST_PAGE_SIZE,
    unit: 'rows',
    meaning: 'Rows on one page of a list.',
  };
  return stringify(spec);
}

// ------------------------------------------------------------------------------------------ 200 fields

export const FORM_FIELD_COUNT = 200;

export interface FormField {
  name: string;
  label: string;
  kind: 'text' | 'integer' | 'number' | 'boolean' | 'enum';
}

const ENUM_VALUES = ['good', 'fair', 'poor', 'missing'];

/** Six in ten text fields, then one each of integer, number, boolean and enum, repeated. */
export function formFields(): FormField[] {
  const cycle: FormField['kind'][] = ['text', 'text', 'text', 'text', 'text', 'text'];
  cycle.push('integer', 'number', 'boolean', 'enum');
  return Array.from({ length: FORM_FIELD_COUNT }, (_, index) => ({
    name: `field${String(index + 1).padStart(3, '0')}`,
    label: `Field ${index + 1}`,
    kind: cycle[index % cycle.length] ?? 'text',
  }));
}

/** The field typed into: a text field in the middle of the form. */
export const TYPED_FIELD_LABEL = 'Field 101';

/** One entity of 200 fields with a create screen; every other point is left out. */
export function formSpecYaml(): string {
  const fields: Record<string, unknown> = { id: { kind: 'integer', readOnly: true } };
  for (const field of formFields()) {
    fields[field.name] =
      field.kind === 'enum'
        ? { kind: 'enum', label: field.label, values: ENUM_VALUES }
        : { kind: field.kind, label: field.label };
  }
  return stringify({
    title: 'Inspection (form benchmark)',
    product: { summary: 'One entity of 200 fields, for timing typing into its create form.' },
    screens: {
      'new-inspection': {
        kind: 'create',
        title: 'New inspection',
        route: '/inspections/new',
        entity: 'Inspection',
      },
    },
    entities: { Inspection: { label: 'Inspection', key: 'id', fields } },
    states: 'not shown',
    validation: 'not shown',
    roles: 'not shown',
    calls: 'not shown',
    errors: 'not shown',
    constants: 'not shown',
  });
}

/** The same 200 fields as a JSON Schema, for rjsf. */
export function formJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of formFields()) {
    properties[field.name] =
      field.kind === 'enum'
        ? { type: 'string', title: field.label, enum: ENUM_VALUES }
        : { type: field.kind === 'text' ? 'string' : field.kind, title: field.label };
  }
  return { title: 'New inspection', type: 'object', properties };
}
