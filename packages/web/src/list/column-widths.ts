import { exhaustiveSwitchError, type Field, fieldLabel } from '@ninefold/model';

/**
 * A column's width in rem, by what its field holds: a title is given room, a count or a yes/no little,
 * so that at 1280 px a talk's title is not cut to "Blind review without …" beside number columns with
 * room to spare. No measuring: the kind and the header's length decide, and the table's fixed layout
 * shares out what the screen has beyond them in the same proportions.
 *
 * @example
 * columnWidth({ name: 'title', kind: 'text' }, true); // 16
 * columnWidth({ name: 'minutes', kind: 'integer' }, false); // 6
 */
export function columnWidth(field: Field, link: boolean): number {
  // About the width of the header's words at the table's size, with its sort arrow.
  const header = fieldLabel(field).length * 0.55 + 2;
  return Math.max(link ? LINK_WIDTH : kindWidth(field), Math.min(header, MAX_HEADER_WIDTH));
}

/** The record's own name, its link. */
const LINK_WIDTH = 16;
/** A long header is cut rather than widening a column of numbers past use. */
const MAX_HEADER_WIDTH = 11;

function kindWidth(field: Field): number {
  switch (field.kind) {
    case 'boolean':
      return 5;
    case 'integer':
    case 'number':
      return 6;
    case 'money':
    case 'date':
    case 'enum':
      return 8;
    case 'file':
    case 'list':
      return 11;
    // "Dec 3, 2026, 10:15 AM" whole.
    case 'datetime':
      return 13;
    case 'reference':
    case 'text':
    case 'markdown':
    case 'object':
      return 12;
    default:
      return exhaustiveSwitchError(field);
  }
}
