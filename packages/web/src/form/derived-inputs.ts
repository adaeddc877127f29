/**
 * The fields a derived field's CEL expression reads (`record.lines`, `has(record.shippingAddress)`), so
 * that its live value re-computes when those change rather than on every keystroke anywhere in the form.
 * Undefined when it reads none of the given fields by name, meaning: watch them all.
 *
 * @example
 * derivedInputs('record.lines.map(l, double(l.quantity) * l.unitPrice).sum()', ['customer', 'lines']) // ['lines']
 */
export function derivedInputs(expression: string, fields: readonly string[]): string[] | undefined {
  const read = new Set([...expression.matchAll(/\brecord\s*\.\s*([A-Za-z_]\w*)/g)].map((match) => match[1]));
  // `record['lines']` or `record` passed whole: the names cannot be read reliably, so watch everything.
  if (/\brecord\s*(\[|[),]|$)/.test(expression)) return undefined;
  const used = fields.filter((field) => read.has(field));
  return used.length === 0 ? undefined : used;
}
