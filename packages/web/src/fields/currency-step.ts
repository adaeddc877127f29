/**
 * The smallest step of an amount in a currency: 0.01 for euros, 1 for yen. Without a currency (or one
 * Intl does not know), cents.
 *
 * @example
 * currencyStep('JPY') // 1
 */
export function currencyStep(currency: string | undefined): number {
  if (!currency) return 0.01;
  try {
    const digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
    return 10 ** -digits;
  } catch {
    return 0.01;
  }
}
