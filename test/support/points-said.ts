import { POINT_KEYS } from '@ninefold/model';

/**
 * A YAML fixture with every point it leaves out said to be "not shown". A point left out is an error
 * (`missing-point`), and a test about calls or lists has no reason to spell out the other eight.
 *
 * @example
 * pointsSaid('title: Notes\nentities: { ... }\n') // ... + 'product: not shown\nscreens: not shown\n...'
 */
export function pointsSaid(yaml: string): string {
  const unsaid = POINT_KEYS.filter((key) => !new RegExp(`^${key}:`, 'm').test(yaml));
  return `${yaml.endsWith('\n') ? yaml : `${yaml}\n`}${unsaid.map((key) => `${key}: not shown\n`).join('')}`;
}
