import { POINT_KEYS, type PointKey } from '../model';
import { PROPERTIES, TABLES, type TableSpec } from './table-specs';
import { SECTION_TITLES } from './write';

/** What an editor may suggest inside one `##` section of the nine-point Markdown. */
export interface SectionVocabulary {
  /** 1 to 9. */
  number: number;
  point: PointKey;
  /** The heading's usual wording, `Screens and routes`. */
  title: string;
  /** Each table the section holds, by what it is, with its header cells in order. */
  tables: Array<{ what: string; header: string[] }>;
  /** The `- Name: value` properties the section (or its subsections) may list. */
  properties: string[];
}

const SECTION_TABLES: Record<PointKey, TableSpec[]> = {
  product: [],
  screens: [TABLES.screens, TABLES.figures],
  entities: [TABLES.fields],
  states: [TABLES.states, TABLES.transitions],
  validation: [TABLES.fieldConstraints, TABLES.rules],
  roles: [TABLES.roles, TABLES.permissions],
  calls: [TABLES.calls],
  errors: [TABLES.errors],
  constants: [TABLES.constants],
};

const SECTION_PROPERTIES: Record<PointKey, ReadonlyArray<{ label: string }>> = {
  product: PROPERTIES.product,
  screens: [],
  entities: PROPERTIES.entity,
  states: PROPERTIES.machine,
  validation: [],
  roles: PROPERTIES.signIn,
  calls: PROPERTIES.calls,
  errors: [],
  constants: [],
};

/**
 * The words of the Markdown convention (docs/spec-format.md) per section, read from the tables the reader
 * itself follows, so that an editor's suggestions never drift from what the loader accepts.
 *
 * @example
 * ```ts
 * markdownVocabulary()[1]; // { number: 2, point: 'screens', title: 'Screens and routes', tables: [...] }
 * ```
 */
export function markdownVocabulary(): SectionVocabulary[] {
  return POINT_KEYS.map((point, index) => ({
    number: index + 1,
    point,
    title: SECTION_TITLES[point],
    tables: SECTION_TABLES[point].map((table) => ({
      what: table.what,
      header: [...(table.name ? [table.name.label] : []), ...table.columns.map((column) => column.label)],
    })),
    properties: SECTION_PROPERTIES[point].map((property) => property.label),
  }));
}
