const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * A file size as people read it, in the language's own unit words: `512 bytes`, `1.2 MB`, `1,2 Mo`.
 * Powers of 1,024, as the size limits of point 9 count them.
 *
 * @example
 * formatBytes(5 * 1024 * 1024, 'en') // '5 MB'
 */
export function formatBytes(size: number, locale: string): string {
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}
