import { didYouMean } from '../authoring/suggest';
import { specTexts } from '../authoring/translate';
import { isTimeZone } from '../cel';
import type { PathSegment } from '../issues';
import { BRAND_RADIUS_MAX, isBrandColor, isBrandFont, isBrandLogo, isBrandRadius } from '../rules/brand';
import { parseNumbering } from '../rules/numbering';
import { type Context, refer, report, shown, text } from './context';

// The checks of point 1 (what the product does): its home screen, its time zone, its brand. check/index.ts runs them in point order over one shared Context.

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
  checkBrand(context, product.theme);
  checkTranslations(context, product.translations);
}

/**
 * Words in other languages: each must translate a text the specification shows, or it would never be
 * seen; a misspelt one is found here rather than by a person who reads the client in French.
 */
function checkTranslations(context: Context, translations: unknown): void {
  if (typeof translations !== 'object' || translations === null) return;
  const texts = specTexts(context.model);
  for (const [language, words] of Object.entries(translations as Record<string, unknown>)) {
    if (typeof words !== 'object' || words === null) continue;
    for (const source of Object.keys(words)) {
      if (texts.has(source)) continue;
      report(
        context,
        'unknown-reference',
        ['product', 'translations', language, source],
        `"${source}" is translated into ${language}, but the specification shows no such text, so the translation would never be seen. Write the text exactly as the client shows it.`,
        { severity: 'warning', hint: didYouMean(source, [...texts]) },
      );
    }
  }
}

/**
 * The brand of point 1: a colour the client can set, a logo the page's policy lets it show (its own
 * origin or a data: image, never another site), a radius that stays a corner.
 */
function checkBrand(context: Context, brand: unknown): void {
  if (typeof brand !== 'object' || brand === null) return;
  const theme = brand as Record<string, unknown>;
  const color = text(theme.primaryColor);
  if (color !== undefined && !isBrandColor(color)) {
    report(
      context,
      'invalid-value',
      ['product', 'brandColor'],
      `The brand colour "${color}" of point 1 is not a CSS colour. Write one such as #0b7285, rgb(11 114 133) or teal.`,
    );
  }
  const logo = text(theme.logo);
  if (logo !== undefined && !isBrandLogo(logo)) {
    report(
      context,
      'invalid-value',
      ['product', 'logo'],
      `The logo "${logo.slice(0, 80)}" of point 1 is not on the client's own site: the page's policy shows images from its own origin only. Give a path such as /brand/logo.svg, or a data:image/ URL.`,
    );
  }
  const font = text(theme.font);
  if (font !== undefined && !isBrandFont(font)) {
    report(context, 'invalid-value', ['product', 'font'], `The font of point 1 may not contain ; { or }.`);
  }
  const radius = theme.radius;
  if (typeof radius === 'number' && !isBrandRadius(radius)) {
    report(
      context,
      'invalid-value',
      ['product', 'radius'],
      `The radius of point 1 is ${radius}; give 0 to ${BRAND_RADIUS_MAX} pixels.`,
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
