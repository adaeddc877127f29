// The client's wording rules for words it builds from the specification's own labels, in one place so
// that every screen says them alike: "Add order line", not "Add Order line"; "Co-speaker 1", not
// "Co-speakers 1"; a hint that names a limit once. Tested over every example's labels (wording.test.ts).

/**
 * One of a list's items, named from the list's label: the label made singular where it is a regular
 * plural (Co-speakers, Categories, Boxes), else left as it is (Staff, Equipment).
 *
 * @example
 * itemOf('Co-speakers'); // 'Co-speaker'
 * itemOf('Categories'); // 'Category'
 */
export function itemOf(label: string): string {
  const word = /(\S+)$/.exec(label)?.[1] ?? '';
  const head = label.slice(0, label.length - word.length);
  const lower = word.toLowerCase();
  if (word.length <= 3 || !/s$/.test(lower) || /(ss|us|is)$/.test(lower)) return label;
  if (/ies$/.test(lower)) return `${head}${word.slice(0, -3)}${word.slice(-3) === 'IES' ? 'Y' : 'y'}`;
  if (/(ches|shes|xes|sses|zes)$/.test(lower)) return `${head}${word.slice(0, -2)}`;
  return `${head}${word.slice(0, -1)}`;
}

/**
 * A label inside a sentence ("Add order line"): its first letter in lower case, unless the first word is
 * an acronym or a name written in capitals (SKU, VAT number, iPhone).
 *
 * @example
 * inSentence('Order line'); // 'order line'
 * inSentence('SKU'); // 'SKU'
 */
export function inSentence(label: string): string {
  const first = /^\S+/.exec(label)?.[0] ?? '';
  if (first.length > 1 && /[A-Z]/.test(first.slice(1))) return label;
  return label.charAt(0).toLocaleLowerCase() + label.slice(1);
}
