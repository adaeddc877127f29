import type { Amount, Constant, Model } from '../model';

/** A bound with its value resolved: a number (or ISO date), and the unit it was given in, if any. */
export interface ResolvedAmount {
  value: number | string;
  unit?: string;
  /** The constant it came from, so messages and hints can name it. */
  constant?: string;
}

/**
 * Resolves a bound of point 5 or 2 (a number, an ISO date, or the name of a constant of point 9).
 * Undefined when it names a constant that is not there (the checker reports that at load time).
 *
 * @example
 * ```ts
 * resolveAmount(model, { kind: 'constant', name: 'MAX_ORDER_LINES' }); // { value: 50, unit: 'lines', constant: 'MAX_ORDER_LINES' }
 * resolveAmount(model, { kind: 'number', value: 3 }); // { value: 3 }
 * ```
 */
export function resolveAmount(model: Model, amount: Amount | undefined): ResolvedAmount | undefined {
  if (amount === undefined) return undefined;
  switch (amount.kind) {
    case 'number':
    case 'date':
      return { value: amount.value };
    case 'constant': {
      const constant = findConstant(model, amount.name);
      if (
        constant === undefined ||
        (typeof constant.value !== 'number' && typeof constant.value !== 'string')
      ) {
        return undefined;
      }
      return {
        value: constant.value,
        constant: constant.name,
        ...(constant.unit === undefined ? {} : { unit: constant.unit }),
      };
    }
  }
}

export function findConstant(model: Model, name: string): Constant | undefined {
  return model.constants.shown ? model.constants.items.find((constant) => constant.name === name) : undefined;
}

const BYTES_PER_UNIT: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/**
 * A size bound in bytes: `5` with unit `MB` is 5,242,880. A bound without a size unit is taken as bytes.
 *
 * @example
 * ```ts
 * toBytes({ value: 5, unit: 'MB' }); // 5242880
 * ```
 */
export function toBytes(amount: ResolvedAmount): number | undefined {
  if (typeof amount.value !== 'number') return undefined;
  const factor = amount.unit === undefined ? 1 : BYTES_PER_UNIT[amount.unit.toLowerCase()];
  return factor === undefined ? amount.value : amount.value * factor;
}

/** `50,000 EUR`, `5 MB`, `120`: how a bound reads in a message or a hint. */
export function formatAmount(amount: ResolvedAmount, locale = 'en'): string {
  const value = typeof amount.value === 'number' ? amount.value.toLocaleString(locale) : amount.value;
  return amount.unit ? `${value} ${amount.unit}` : value;
}
