// biome-ignore-all lint/a11y/noRedundantRoles: virtual rows and their cells are laid out as grid and blocks (list.css), which strips their implicit table roles, so the roles are stated.
import type { CSSProperties, ReactNode } from 'react';
import type { ApiRecord } from '../data/data-provider';
import { type CellContext, cellContent } from './cell-content';
import type { ListPlan } from './list-plan';

export interface RowProps {
  plan: ListPlan;
  /** What the table's cells share: formatters, badge colours, reference targets and names. */
  cells: CellContext;
  record: ApiRecord;
  /** The record's place in the answer, from 0. */
  index: number;
  recordHref(record: ApiRecord): string | undefined;
  /** Where a virtual row sits. */
  style?: CSSProperties;
  /**
   * A row of a virtual table: its table roles and its place among all rows are stated, since the grid
   * it is laid out in takes away the implicit ones and most rows are not in the document. A plain table
   * has them from its elements, and leaves out a few hundred attributes.
   */
  virtual?: boolean;
  /** A last cell of actions on the record (the team's extension), when the table has that column. */
  actions?: ((record: ApiRecord) => ReactNode) | undefined;
  /** A first cell (the selection's checkbox), when the table has that column. */
  leading?: ((record: ApiRecord) => ReactNode) | undefined;
}

/** One record as a row of the list's table, its cells in the plan's columns. */
export function ListRow({
  plan,
  cells,
  record,
  index,
  recordHref,
  style,
  virtual = false,
  actions,
  leading,
}: RowProps) {
  const keyField = plan.entity?.key;
  const key = keyField === undefined ? undefined : record[keyField];
  const recordKey = key === undefined || key === null ? undefined : String(key);
  return (
    <tr {...(virtual ? { role: 'row', 'aria-rowindex': index + 2 } : {})} style={style}>
      {leading ? <td role={virtual ? 'cell' : undefined}>{leading(record)}</td> : null}
      {plan.columns.map((field) => {
        const href = field.name === plan.linkColumn ? recordHref(record) : undefined;
        return (
          <td
            key={field.name}
            role={virtual ? 'cell' : undefined}
            data-numeric={isNumeric(field.kind) ? true : undefined}
          >
            {cellContent(
              field,
              record[field.name],
              href === undefined ? undefined : { href, key: recordKey },
              cells,
            )}
          </td>
        );
      })}
      {actions ? (
        <td className="nf-row-actions" role={virtual ? 'cell' : undefined}>
          {actions(record)}
        </td>
      ) : null}
    </tr>
  );
}

/** Rows have one fixed height: the virtualizer then never measures, and scrolling stays smooth. */
export const ROW_HEIGHT = 44;

/** A row's React key: the record's key where it has a plain one, its place otherwise. */
export function rowKey(plan: ListPlan, record: ApiRecord, index: number): string {
  const keyField = plan.entity?.key;
  const key = keyField === undefined ? undefined : record[keyField];
  return key === undefined || key === null || typeof key === 'object' ? `#${index}` : String(key);
}

/** Numbers are set flush right, in the header as in the cells. */
export function isNumeric(kind: string): boolean {
  return kind === 'number' || kind === 'integer' || kind === 'money';
}
