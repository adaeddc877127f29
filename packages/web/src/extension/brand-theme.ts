// By path, not by package: vite.config.ts loads this module to make an extension's brand a stylesheet,
// and Vite's config loader leaves packages to Node, which cannot load packages/model's TypeScript.
// By its path, not '@ninefold/model': vite.config.ts loads this file in Node, and Vite's config loader
// leaves a package to Node, which cannot read the model's TypeScript (test/boundaries.test.ts allows it).
import { BRAND_RADIUS_MAX, isBrandColor, isBrandFont } from '../../../model/src/rules/brand';
import { theme as baseTheme } from '../app/theme';
import type { ThemeOverride } from './types';

/** The palette the stock theme uses as its primary colour (`indigo`), which a brand colour replaces. */
const PRIMARY_PALETTE = baseTheme.primaryColor ?? 'indigo';

/**
 * The CSS variables a brand sets, on top of the theme's stylesheet: Mantine's components and the plain
 * ones of the shell and the lists read the same variables, so a colour, a font or a radius changes them
 * all. Set as properties of the root element's style (CSSOM), which the strict policy allows.
 *
 * @example
 * brandVariables({ primaryColor: '#0b7285', radius: 8 });
 * // { '--mantine-primary-color-filled': '#0b7285', …, '--mantine-radius-default': '8px', … }
 */
export function brandVariables(theme: ThemeOverride): Record<string, string> {
  const variables: Record<string, string> = {};
  const color = theme.primaryColor;
  if (color !== undefined && isBrandColor(color)) {
    const mix = (other: string, share: number) => `color-mix(in srgb, ${color} ${share}%, ${other})`;
    const shades = [
      mix('white', 5),
      mix('white', 15),
      mix('white', 30),
      mix('white', 45),
      mix('white', 60),
      mix('white', 80),
      color,
      mix('black', 85),
      mix('black', 72),
      mix('black', 60),
    ];
    // Mantine names the primary colour two ways: as the primary, and by its palette's name (the theme's
    // `indigo`), which the light, subtle and outline variants and the badges read.
    for (const prefix of ['--mantine-primary-color', `--mantine-color-${PRIMARY_PALETTE}`]) {
      shades.forEach((shade, index) => {
        variables[`${prefix}-${index}`] = shade;
      });
      variables[`${prefix}-filled`] = color;
      variables[`${prefix}-filled-hover`] = mix('black', 85);
      variables[`${prefix}-light`] = mix('transparent', 12);
      variables[`${prefix}-light-hover`] = mix('transparent', 20);
      variables[`${prefix}-light-color`] = mix('black', 80);
      variables[`${prefix}-outline`] = color;
      variables[`${prefix}-outline-hover`] = mix('transparent', 8);
      variables[`${prefix}-text`] = mix('black', 85);
    }
    variables['--mantine-primary-color-contrast'] = contrastOn(color);
    variables['--mantine-color-anchor'] = mix('black', 85);
  }
  if (theme.font !== undefined && isBrandFont(theme.font)) {
    variables['--mantine-font-family'] = theme.font;
    variables['--mantine-font-family-headings'] = theme.font;
  }
  if (theme.radius !== undefined && Number.isFinite(theme.radius) && theme.radius >= 0) {
    // Code may ask for more than point 1 is allowed; it gets the largest corner instead of none.
    const radius = Math.min(theme.radius, BRAND_RADIUS_MAX);
    variables['--mantine-radius-default'] = `${radius}px`;
    variables['--mantine-radius-sm'] = `${Math.round(radius * 0.75)}px`;
    variables['--mantine-radius-md'] = `${radius}px`;
  }
  if (theme.density === 'compact') {
    const spacing = { xs: 6, sm: 8, md: 12, lg: 16, xl: 22 };
    for (const [size, pixels] of Object.entries(spacing))
      variables[`--mantine-spacing-${size}`] = `${pixels}px`;
  }
  return variables;
}

/**
 * Sets a brand's variables on the page's root element, for the brand point 1 states as data (the
 * runtime is the same for every specification, so that one cannot be a stylesheet of the build).
 * Set as properties of the element's style (CSSOM), which the strict policy allows.
 */
export function applyBrand(theme: ThemeOverride, element: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(brandVariables(theme))) element.style.setProperty(name, value);
}

/** Takes a brand's variables off the element again (a `<NinefoldApp>` that is unmounted). */
export function clearBrand(theme: ThemeOverride, element: HTMLElement = document.documentElement): void {
  for (const name of Object.keys(brandVariables(theme))) element.style.removeProperty(name);
}

/**
 * A brand as a stylesheet, made when the client is built with its extension (vite.config.ts): the page
 * draws in the brand's colours from its first paint, with no code to run. The selector outweighs the
 * theme's own, in the light and the dark scheme.
 *
 * @example
 * brandStylesheet({ radius: 8 }); // 'html:root,html:root[data-mantine-color-scheme]{--mantine-radius-default:8px;…}'
 */
export function brandStylesheet(theme: ThemeOverride): string {
  const declarations = Object.entries(brandVariables(theme)).map(([name, value]) => `${name}:${value};`);
  return declarations.length === 0
    ? ''
    : `html:root,html:root[data-mantine-color-scheme]{${declarations.join('')}}\n`;
}

/** White or black, whichever reads better on a `#rrggbb` colour (WCAG relative luminance); white otherwise. */
export function contrastOn(color: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!match) return 'white';
  const channel = (hex: string) => {
    const value = Number.parseInt(hex, 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [match[1], match[2], match[3]].map((hex) => channel(hex ?? '00')) as [
    number,
    number,
    number,
  ];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with white is 1.05 / (L + 0.05), with black (L + 0.05) / 0.05: equal at L ≈ 0.179.
  return luminance > 0.179 ? 'black' : 'white';
}
