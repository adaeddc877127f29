/**
 * How a day is written in a language, as a pattern Mantine's date input reads and writes (`DD/MM/YYYY`
 * in French, `MM/DD/YYYY` in American English): the order and separators of the language's own short
 * date. English follows the browser's region (en-GB writes the day first).
 *
 * @example
 * ```ts
 * dayPattern('fr'); // 'DD/MM/YYYY'
 * dayPattern('en', 'en-GB'); // 'DD/MM/YYYY'
 * ```
 */
export function dayPattern(
  locale: string,
  browser = typeof navigator === 'undefined' ? 'en-US' : navigator.language,
): string {
  const tag = locale === 'en' && browser.toLowerCase().startsWith('en') ? browser : locale;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(
      new Date(Date.UTC(2026, 10, 26)),
    );
  } catch {
    return 'YYYY-MM-DD';
  }
  const pattern = parts
    .map((part) => {
      switch (part.type) {
        case 'day':
          return 'DD';
        case 'month':
          return 'MM';
        case 'year':
          return 'YYYY';
        case 'literal':
          // A literal of letters would be read as a pattern's own; a language that has one is not met here.
          return /[A-Za-z]/.test(part.value) ? ' ' : part.value;
        default:
          return '';
      }
    })
    .join('');
  return /DD/.test(pattern) && /MM/.test(pattern) && /YYYY/.test(pattern) ? pattern : 'YYYY-MM-DD';
}
