import { isTimeZone } from '../cel';
import type { PathSegment } from '../issues';
import { parseNumbering } from '../rules/numbering';
import { type Context, refer, report, shown, text } from './context';

// The checks of point 1 (what the product does): its home screen, its time zone. check-model.ts runs them in point order over one shared Context.

export function checkProduct(context: Context): void {
  const product = shown(context.model.product);
  if (!product) return;
  refer(context, 'screen', product.home, ['product', 'home'], 'the home screen of point 1 (product)');
  const zone = text(product.timeZone);
  if (zone !== undefined && !isTimeZone(zone)) {
    report(
      context,
      'invalid-value',
      ['product', 'timeZone'],
      `The time zone "${zone}" of point 1 is not an IANA time zone name. Write one such as Europe/Amsterdam or UTC.`,
    );
  }
}

/** A numbered field: read-only text, with a pattern that has one {seq}. */
export function checkNumbering(
  context: Context,
  field: { numbering?: unknown; kind?: unknown; readOnly?: unknown },
  path: PathSegment[],
  owner: string,
): void {
  const parsed = parseNumbering(String(field.numbering));
  if (!parsed.ok) {
    report(context, 'invalid-value', path, `The numbering of ${owner}: ${parsed.message}.`);
    return;
  }
  if (field.kind !== 'text' || field.readOnly !== true) {
    report(
      context,
      'invalid-value',
      path,
      `${owner} is numbered by the API, so it must be a read-only text field. ` +
        `Make its kind text and add "Read only: yes".`,
    );
  }
}
