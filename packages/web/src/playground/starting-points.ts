import { detectFormat, type SpecFormat } from '@ninefold/model';

/** A text to start from, loaded when chosen: the examples are not in the page's first download. */
export interface StartingPoint {
  id: 'rich' | 'empty';
  label: string;
  format: SpecFormat;
  load(): Promise<string>;
}

export const STARTING_POINTS: readonly StartingPoint[] = [
  {
    id: 'rich',
    label: 'Rich example (a shop)',
    format: 'markdown',
    load: () => import('../../../../examples/shop.md?raw').then((module) => module.default),
  },
  {
    id: 'empty',
    label: 'Nothing shown (empty.md)',
    format: 'markdown',
    load: () => import('../../../../examples/empty.md?raw').then((module) => module.default),
  },
];

/** Whether a file's text is an OpenAPI (or Swagger) document rather than a nine-point specification. */
export function looksLikeOpenApiText(text: string): boolean {
  const head = text.slice(0, 4096);
  return /(^|\n)\s*["']?(openapi|swagger)["']?\s*:/.test(head);
}

/** The format a file's name says, else its text (as `ninefold check` decides). */
export function formatOfFile(name: string, text: string): SpecFormat {
  return detectFormat(name, text);
}
