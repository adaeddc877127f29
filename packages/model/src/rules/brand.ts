// What a brand may be, the same for point 1's brand (checked when the specification loads) and an
// extension module's (set by the client, which leaves out what does not pass).

/** The largest corner radius, in pixels: beyond it a button is a pill and a card a blob. */
export const BRAND_RADIUS_MAX = 32;

/** A hex colour, a functional notation, or a colour name: the forms a brand's colour is written in. */
const CSS_COLOR =
  /^(?:#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(?:rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\([^;{}()]*\)|[a-z]{3,30})$/i;

/**
 * A colour the client can set as a CSS variable, and nothing that could end the declaration and start
 * another.
 *
 * @example
 * isBrandColor('#0b7285'); // true
 * isBrandColor('red; background: url(x)'); // false
 */
export function isBrandColor(value: string): boolean {
  return CSS_COLOR.test(value);
}

/** A CSS font-family list that cannot end the declaration it is set in. */
export function isBrandFont(value: string): boolean {
  return value.trim() !== '' && !/[;{}]/.test(value);
}

/** A logo the page's policy lets it show: a path on the client's own origin, or a `data:image/` URL. */
export function isBrandLogo(value: string): boolean {
  return (value.startsWith('/') && !value.startsWith('//')) || /^data:image\//i.test(value);
}

/** A corner radius in pixels the client draws as it is. */
export function isBrandRadius(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= BRAND_RADIUS_MAX;
}
