import { type Field, isPersonField, type JsonValue } from '@ninefold/model';
import type { ComponentType, ReactNode } from 'react';
import type { PlainLinks } from '../app/router';
import { OverrideBoundary, originalOf } from '../extension/OverrideBoundary';
import type { FieldDisplayOverrideProps } from '../extension/types';
import { labelOf, textOf } from '../fields/display-props';
import { PEOPLE } from '../form/query-keys';
import { recordPath } from '../form/record-path';
import { type CellTextContext, cellText } from './cell-text';
import type { ReferenceNames } from './useReferenceNames';

/** What a table's cells share, made once per table (see `useCellContext`). */
export interface CellContext {
  text: CellTextContext;
  /** Per state field of point 4: each state's badge, its colour and the label point 4 gives it. */
  tones: ReadonlyMap<string, ReadonlyMap<string, StateBadge>>;
  /** Per reference field: what it points at. */
  references: ReadonlyMap<string, ReferenceColumn>;
  names: ReferenceNames;
  links: PlainLinks;
  /** Per column an extension displays (docs/extending.md): its component. Empty without one. */
  overrides: ReadonlyMap<string, CellOverride>;
}

/** How a state is drawn in a cell: as on the record's page (StatusBadge). */
export interface StateBadge {
  color: string;
  label: string | undefined;
}

/** An extension's display of a column's values. */
export interface CellOverride {
  Display: ComponentType<FieldDisplayOverrideProps>;
  entity: string;
  /** For the notice if it throws: `display of Product.rating`. */
  what: string;
}

/** A reference column's target, looked up once per table. */
export interface ReferenceColumn {
  /** The referenced entity's key field, to find the key of a record the API answered expanded. */
  key: string;
  /** Its display field, the name shown for an expanded record. */
  display: string | undefined;
  /** Its detail route, where this role may open it. */
  route: string | undefined;
}

/** Where the cell is the record's own link column. */
export interface RecordLink {
  /** The record's address below the client's base. */
  href: string;
  /** The record's key, the link's text when the cell itself is empty. */
  key: string | undefined;
}

/**
 * One table cell's content: the value as text by its field's kind, a state badge for a state field, the
 * record's link in its link column (plain anchors: the table follows their clicks, `usePlainLinks`), and the referenced record's name, linking to it, for a reference.
 *
 * A plain function of plain elements rather than a component per cell: a page renders hundreds of cells,
 * and each component (with its hooks) counted in the list's first render. Text only, never markup, so
 * API data cannot inject any.
 */
export function cellContent(
  field: Field,
  value: JsonValue | undefined,
  link: RecordLink | undefined,
  context: CellContext,
): ReactNode {
  const builtIn = builtInCellContent(field, value, link, context);
  // A client built without an extension has no overrides: its list's code leaves this out.
  const override = __NINEFOLD_EXTENSION__ ? context.overrides.get(field.name) : undefined;
  return __NINEFOLD_EXTENSION__ &&
    override !== undefined &&
    value !== undefined &&
    value !== null &&
    value !== ''
    ? overriddenCell(override, field, value, builtIn)
    : builtIn;
}

/** An extension's display of a cell, over the built-in content it falls back to if it throws. */
function overriddenCell(
  override: CellOverride,
  field: Field,
  value: JsonValue,
  builtIn: ReactNode,
): ReactNode {
  const { Display } = override;
  return (
    <OverrideBoundary what={override.what} fallback={builtIn} compact>
      <Display
        field={field}
        value={value}
        entity={override.entity}
        place="cell"
        Original={originalOf(builtIn)}
      />
    </OverrideBoundary>
  );
}

function builtInCellContent(
  field: Field,
  value: JsonValue | undefined,
  link: RecordLink | undefined,
  context: CellContext,
): ReactNode {
  const text = cellText(field, value, context.text);
  if (link !== undefined) {
    // A record whose first column refers to another (a reservation's member) is named by that one's name.
    const named =
      field.kind === 'reference' && (typeof value === 'string' || typeof value === 'number')
        ? context.names.name(field.entity, textOf(value))
        : undefined;
    return (
      <a className="nf-cell-link" href={context.links.href(link.href)} data-to={link.href}>
        {named ?? (text === '' ? (link.key ?? '') : text)}
      </a>
    );
  }
  if (text === '') return null;
  const badge = typeof value === 'string' ? context.tones.get(field.name)?.get(value) : undefined;
  if (badge !== undefined) {
    return (
      <span className="nf-badge" data-color={badge.color}>
        {badge.label ?? text}
      </span>
    );
  }
  if (isPersonField(field) && typeof value === 'string') {
    // Who entered the record, by name where the API tells it; else their id, as stored.
    const busy = context.names.pending(PEOPLE, value) || undefined;
    return <span aria-busy={busy}>{context.names.name(PEOPLE, value) ?? text}</span>;
  }
  const reference = field.kind === 'reference' ? context.references.get(field.name) : undefined;
  if (field.kind === 'reference' && reference !== undefined && value !== undefined && value !== null) {
    // The API may answer the record expanded (`{ id, name }`): its name is then already there.
    const expanded =
      typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, JsonValue>) : undefined;
    const id = expanded ? textOf(expanded[reference.key] ?? '') : textOf(value);
    const shown = expanded && reference.display !== undefined ? expanded[reference.display] : undefined;
    const name = expanded
      ? shown === undefined || shown === null || shown === ''
        ? id
        : labelOf(shown)
      : (context.names.name(field.entity, id) ?? id);
    const busy = (!expanded && context.names.pending(field.entity, id)) || undefined;
    const to = reference.route === undefined || id === '' ? undefined : recordPath(reference.route, id);
    return to ? (
      <a className="nf-cell-link" href={context.links.href(to)} data-to={to} aria-busy={busy}>
        {name}
      </a>
    ) : (
      <span aria-busy={busy}>{name}</span>
    );
  }
  return text;
}
