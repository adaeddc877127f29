import { Table } from '@mantine/core';
import { type Field, fieldLabel, type JsonValue } from '@ninefold/model';
import type { ReactNode } from 'react';

const NUMERIC = new Set<Field['kind']>(['number', 'integer', 'money']);

export interface FieldTableProps {
  columns: readonly Field[];
  rows: ReadonlyArray<{ key: string; values: Readonly<Record<string, JsonValue>> }>;
  /** The table's name: its own text, or the id of a heading that names it. */
  label: { text: string } | { by: string };
  /** A cell's content; a value's own display unless the caller draws it otherwise (a link). */
  cell(column: Field, values: Readonly<Record<string, JsonValue>>): ReactNode;
  /** Rows under the table: totals, each named in the columns before the last and shown in the last. */
  footer?: ReadonlyArray<{ label: string; value: ReactNode }>;
}

/**
 * Records, or a record's lines, as a small table: a header of the fields' labels, a row each, amounts
 * and counts to the right. It scrolls sideways on a phone rather than squeezing its columns.
 */
export function FieldTable({ columns, rows, label, cell, footer }: FieldTableProps) {
  const align = (column: Field) => (NUMERIC.has(column.kind) ? 'right' : undefined);
  return (
    // Focusable and named, as every scrolling box of the client is: on a phone it scrolls sideways, and
    // a keyboard must reach it even while no cell holds a link (references' names not read yet).
    <Table.ScrollContainer
      // An order's three columns fit a phone (328 px of it); a fourth scrolls.
      minWidth={columns.length * 96}
      type="native"
      role="region"
      tabIndex={0}
      {...('text' in label ? { 'aria-label': label.text } : { 'aria-labelledby': label.by })}
    >
      <Table
        className="nf-field-table"
        withTableBorder
        verticalSpacing="xs"
        fz="md"
        {...('text' in label ? { 'aria-label': label.text } : { 'aria-labelledby': label.by })}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.name} ta={align(column)}>
                {fieldLabel(column)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              {columns.map((column) => (
                <Table.Td key={column.name} ta={align(column)}>
                  {cell(column, row.values)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {footer && footer.length > 0 ? (
          <Table.Tfoot>
            {footer.map((total) => (
              <Table.Tr key={total.label}>
                <Table.Th scope="row" colSpan={Math.max(1, columns.length - 1)} ta="right">
                  {total.label}
                </Table.Th>
                <Table.Td ta="right" fw={700}>
                  {total.value}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tfoot>
        ) : null}
      </Table>
    </Table.ScrollContainer>
  );
}
