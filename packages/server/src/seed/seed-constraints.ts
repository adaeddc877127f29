import {
  type Amount,
  exhaustiveSwitchError,
  type FieldConstraints,
  type FieldKind,
  type Model,
} from '@ninefold/model';

/**
 * Where a field sits: the top-level entity and the path from it, plus every embedded entity passed on
 * the way with the path from that entity. Point 5 may constrain `Order.shippingAddress.postcode` (from
 * the top) or `OrderLine.quantity` (on the embedded entity, wherever it is used); both apply.
 */
export interface FieldPlace {
  anchors: ReadonlyArray<{ entity: string; path: readonly string[] }>;
}

/** The constraints of one field, merged from every matching entry and with amounts resolved. */
export interface SeedRules {
  required: boolean;
  /** Value for numbers, length for text, count for lists, bytes for files. */
  min?: number;
  max?: number;
  /** ISO dates bounding date and datetime fields. */
  earliest?: string;
  latest?: string;
  /** Patterns that compile with the `u` flag; patterns that do not are left to the checker to report. */
  patterns: readonly RegExp[];
  unique: boolean;
}

export const NO_RULES: SeedRules = { required: false, patterns: [], unique: false };

/** Looks up the constraints of point 5 for a field, resolving constants of point 9 by name. */
export interface ConstraintIndex {
  rulesAt(place: FieldPlace, field: string, kind: FieldKind): SeedRules;
  /** The place one level down, inside an object (or list of objects) field of the given embedded entity. */
  enter(place: FieldPlace, field: string, entity: string): FieldPlace;
}

const SEPARATOR = '\u0000';

export function constraintIndex(model: Model): ConstraintIndex {
  const byPlace = new Map<string, FieldConstraints[]>();
  if (model.validation.shown) {
    for (const constraints of model.validation.fields) {
      const key = [constraints.entity, ...constraints.field].join(SEPARATOR);
      byPlace.set(key, [...(byPlace.get(key) ?? []), constraints]);
    }
  }
  const constants = new Map<string, number | string | boolean>();
  const units = new Map<string, string>();
  if (model.constants.shown) {
    for (const constant of model.constants.items) {
      constants.set(constant.name, constant.value);
      if (constant.unit !== undefined) units.set(constant.name, constant.unit);
    }
  }

  const resolve = (amount: Amount | undefined, kind: FieldKind): number | undefined => {
    if (amount === undefined) return undefined;
    switch (amount.kind) {
      case 'number':
        return amount.value;
      case 'date':
        return undefined;
      case 'constant': {
        const value = constants.get(amount.name);
        const number =
          typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
        if (!Number.isFinite(number)) return undefined;
        return kind === 'file' ? number * byteFactor(units.get(amount.name)) : number;
      }
      default:
        return exhaustiveSwitchError(amount);
    }
  };

  return {
    enter(place, field, entity) {
      return {
        anchors: [
          ...place.anchors.map((anchor) => ({ entity: anchor.entity, path: [...anchor.path, field] })),
          { entity, path: [] },
        ],
      };
    },
    rulesAt(place, field, kind) {
      const found = place.anchors.flatMap(
        (anchor) => byPlace.get([anchor.entity, ...anchor.path, field].join(SEPARATOR)) ?? [],
      );
      if (found.length === 0) return NO_RULES;
      const patterns: RegExp[] = [];
      const rules: SeedRules = { required: false, patterns, unique: false };
      for (const constraints of found) {
        if (constraints.required) rules.required = true;
        if (constraints.unique) rules.unique = true;
        const min = resolve(constraints.min, kind);
        const max = resolve(constraints.max, kind);
        if (min !== undefined) rules.min = Math.max(rules.min ?? min, min);
        if (max !== undefined) rules.max = Math.min(rules.max ?? max, max);
        if (constraints.min?.kind === 'date') rules.earliest = later(rules.earliest, constraints.min.value);
        if (constraints.max?.kind === 'date') rules.latest = earlier(rules.latest, constraints.max.value);
        const pattern = constraints.pattern === undefined ? undefined : compile(constraints.pattern);
        if (pattern) patterns.push(pattern);
      }
      return rules;
    },
  };
}

/** The place of a top-level entity's own fields. */
export function placeOf(entity: string): FieldPlace {
  return { anchors: [{ entity, path: [] }] };
}

// Decimal multiples are the smaller reading of `MB` and friends, so a size within them is within either.
const BYTE_FACTORS: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1e3,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gb: 1e9,
  gib: 1024 ** 3,
};

function byteFactor(unit: string | undefined): number {
  return unit === undefined ? 1 : (BYTE_FACTORS[unit.trim().toLowerCase()] ?? 1);
}

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function later(a: string | undefined, b: string): string {
  return a === undefined || b > a ? b : a;
}

function earlier(a: string | undefined, b: string): string {
  return a === undefined || b < a ? b : a;
}
