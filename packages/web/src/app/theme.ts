import { type CSSVariablesResolver, createTheme, type MantineProviderProps } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // White on indigo 6 is about 4:1; shade 8 passes WCAG AA for button and active-link text.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  cursorType: 'pointer',
  // A person who asked their system for less motion gets dialogs, menus and notices without their slide
  // and fade (app.css stops the skeletons' shimmer and the spinners too).
  respectReducedMotion: true,
});

/**
 * Mantine's light-scheme dimmed text (gray 6) and links (blue 6) fall short of WCAG AA contrast on
 * white (about 3.3:1 and 3.5:1), and dark-scheme dimmed text on the dark body about 4.2:1; one shade
 * further from the background reaches it.
 */
export const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    // The hovered active link's background (indigo 2) leaves its indigo 9 text at 4.1:1.
    '--mantine-primary-color-light-hover': 'var(--mantine-color-indigo-1)',
    '--mantine-color-indigo-light-hover': 'var(--mantine-color-indigo-1)',
    // Light alerts draw their colour on a pale tint of it: green 9 on its tint is 3.6:1 and red 9 about
    // 4.5:1, so both are darkened a quarter towards black to reach 4.5:1 with room to spare.
    '--mantine-color-green-light-color': 'color-mix(in srgb, var(--mantine-color-green-9) 75%, black)',
    '--mantine-color-red-light-color': 'color-mix(in srgb, var(--mantine-color-red-9) 75%, black)',
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
    // Yellow and orange on their tints are under 3:1 (a 429's notice, a conflict): a dark brown of their
    // own hue reads at over 7:1 and still says "warning".
    '--mantine-color-yellow-light-color': 'color-mix(in srgb, var(--mantine-color-yellow-9) 45%, black)',
    '--mantine-color-orange-light-color': 'color-mix(in srgb, var(--mantine-color-orange-9) 50%, black)',
    // A field's error (its message, and the value of an invalid input) in red 6 is 3.3:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

/**
 * The provider's settings, the same for the client and its boot failure page. The theme's CSS variables
 * and Mantine's responsive classes are a stylesheet made from this theme when the runtime is built
 * (`themeStylesheet` in vite.config.ts) rather than a <style> element that the provider works out and
 * inserts at every start: that was a sixth of a list's first render, and a restyle of the whole page.
 */
export const THEME = {
  theme,
  defaultColorScheme: 'auto',
  cssVariablesResolver: contrastVariables,
  withCssVariables: false,
  withGlobalClasses: false,
} satisfies Omit<MantineProviderProps, 'children'>;
