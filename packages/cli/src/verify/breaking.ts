// Values that break a rule: for each field an expression reads, a few values at the edges of its kind,
// each kept only when the specification's own check says it breaks that rule and nothing else.
import { type Entity, type Field, type JsonValue, type Model, resolveAmount } from '@ninefold/model';

type Values = Record<string, JsonValue>;

/** The top-level fields an expression reads as `record.<field>`. */
export function fieldsRead(expression: string): string[] {
  return [
    ...new Set([...expression.matchAll(/\brecord\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string)),
  ];
}

/** Values at the edges of a field's kind, and the constants of point 9 with a step either side. */
export function edgeValues(model: Model, field: Field, current: JsonValue | undefined): JsonValue[] {
  const constants = model.constants.shown
    ? model.constants.items.map((c) => c.value).filter((v): v is number => typeof v === 'number')
    : [];
  switch (field.kind) {
    case 'integer':
      return [0, -1, 1, 1_000_000_000, -1_000_000_000, ...constants.flatMap((c) => [c - 1, c, c + 1])].map(
        Math.trunc,
      );
    case 'number':
    case 'money':
      return [
        0,
        -1,
        0.5,
        1_000_000_000,
        -1_000_000_000,
        ...constants.flatMap((c) => [c - 0.01, c, c + 0.01]),
      ];
    case 'text':
    case 'markdown':
      return ['', 'x', 'x'.repeat(10_001)];
    case 'boolean':
      return [true, false];
    case 'date':
      return ['1970-01-01', '2999-12-31', '2000-02-29'];
    case 'datetime':
      return ['1970-01-01T00:00:00Z', '2999-12-31T23:59:59Z'];
    case 'enum':
      return field.values.map((v) => v.value);
    case 'list': {
      if (!Array.isArray(current) || current.length === 0) return [[]];
      const out: JsonValue[] = [
        [],
        current.slice(0, 1),
        Array.from({ length: 60 }, (_, i) => current[i % current.length] as JsonValue),
      ];
      // Embedded records: one number of every item at a time at its edges (a price so high a total breaks).
      const of = field.of;
      const inner =
        of.kind === 'object' && model.entities.shown
          ? model.entities.items.find((e) => e.name === of.entity)
          : undefined;
      for (const part of inner?.fields ?? []) {
        if (part.kind !== 'number' && part.kind !== 'money' && part.kind !== 'integer') continue;
        for (const value of [1_000_000, 0, -1]) {
          out.push(
            current.map((item) =>
              item && typeof item === 'object' && !Array.isArray(item)
                ? { ...item, [part.name]: value }
                : item,
            ),
          );
        }
      }
      return out;
    }
    case 'reference':
    case 'object':
    case 'file':
      return [];
  }
}

/**
 * Bodies derived from `base`, one or two fields changed, in order: each field alone through its edge
 * values, then two fields of one kind swapped (a start after its end).
 */
export function* variationsOf(
  model: Model,
  entity: Entity,
  base: Values,
  fields: readonly string[],
): Generator<Values> {
  const known = fields
    .map((name) => entity.fields.find((f) => f.name === name))
    .filter((f): f is Field => f !== undefined);
  for (const field of known) {
    for (const value of edgeValues(model, field, base[field.name])) yield { ...base, [field.name]: value };
    yield withoutField(base, field.name);
  }
  for (const a of known) {
    for (const b of known) {
      if (a.name < b.name && a.kind === b.kind && base[a.name] !== undefined && base[b.name] !== undefined) {
        yield { ...base, [a.name]: base[b.name] as JsonValue, [b.name]: base[a.name] as JsonValue };
      }
    }
  }
}

function withoutField(values: Values, name: string): Values {
  const { [name]: _gone, ...rest } = values;
  return rest;
}

/** A value that breaks a field's bound of point 5, or undefined when the bound says nothing it can break. */
export function brokenBound(
  model: Model,
  field: Field,
  bound: 'min' | 'max',
  amount: Parameters<typeof resolveAmount>[1],
): JsonValue | undefined {
  const resolved = resolveAmount(model, amount);
  const value = resolved?.value;
  switch (field.kind) {
    case 'integer':
      return typeof value === 'number'
        ? bound === 'min'
          ? Math.ceil(value) - 1
          : Math.floor(value) + 1
        : undefined;
    case 'number':
    case 'money':
      return typeof value === 'number' ? (bound === 'min' ? value - 1 : value + 1) : undefined;
    case 'text':
    case 'markdown':
      if (typeof value !== 'number') return undefined;
      if (bound === 'min') return value >= 1 ? 'x'.repeat(value - 1) : undefined;
      return 'x'.repeat(value + 1);
    case 'date': {
      if (typeof value !== 'string') return undefined;
      const day = new Date(`${value}T00:00:00Z`).getTime() + (bound === 'min' ? -1 : 1) * 86_400_000;
      return Number.isNaN(day) ? undefined : new Date(day).toISOString().slice(0, 10);
    }
    default:
      return undefined;
  }
}

/** Text that a pattern refuses, from a few shapes unlike most patterns' own. */
export function brokenPattern(pattern: string): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  return ['!', '0', 'a', ' ', '~~ not this ~~', 'ÆØÅ', '-'].find((text) => !regex.test(text));
}

/** The fields an expression reads, and for a derived one the fields its own expression reads: those a person writes. */
export function readsThrough(entity: Entity, expression: string): string[] {
  const out = new Set<string>();
  const visit = (text: string, depth: number) => {
    for (const name of fieldsRead(text)) {
      if (out.has(name)) continue;
      out.add(name);
      const derived = entity.fields.find((f) => f.name === name)?.derived;
      if (derived !== undefined && depth < 4) visit(derived, depth + 1);
    }
  };
  visit(expression, 0);
  return [...out];
}
