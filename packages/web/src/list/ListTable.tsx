// biome-ignore-all lint/a11y/noRedundantRoles: the table's parts are laid out as grid and blocks (list.css), which strips their implicit table roles in browsers' accessibility trees, so the roles are stated.
import { UnstyledButton } from '@mantine/core';
import { fieldLabel, type Model, type SortKey } from '@ninefold/spec';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type SortingState,
  type Updater,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, useCallback, useEffect, useMemo, useRef } from 'react';
import type { ApiRecord } from '../data/data-provider';
import { CellValue } from './CellValue';
import type { ListPlan } from './list-plan';
import './list.css';

/** Rows have one fixed height: the virtualizer then never measures, and scrolling stays smooth. */
const ROW_HEIGHT = 44;
const OVERSCAN = 12;

export interface ListTableProps {
  model: Model;
  plan: ListPlan;
  /** The table's accessible name: the screen's title. */
  label: string;
  records: ApiRecord[];
  sort: SortKey | undefined;
  onSort(sort: SortKey): void;
  /** Where a record's link goes, when it has a detail screen. */
  recordHref(record: ApiRecord): string | undefined;
  /** A newer page is loading while this one is shown. */
  busy: boolean;
}

/**
 * The records of one page as a table (TanStack Table's model), of which only the rows in view are in the
 * document (TanStack Virtual), so a page of ten thousand records scrolls as smoothly as one of ten.
 *
 * The rows are absolutely positioned, which takes table layout away from them; explicit table roles and
 * `aria-rowcount`/`aria-rowindex` keep what assistive technology announces: a table with every row
 * counted, even those not in the document.
 */
export function ListTable({ model, plan, label, records, sort, onSort, recordHref, busy }: ListTableProps) {
  const entityName = plan.entity?.name ?? '';
  const keyField = plan.entity?.key;
  const columns = useMemo<ColumnDef<ApiRecord>[]>(
    () =>
      plan.columns.map((field) => ({
        id: field.name,
        accessorFn: (record: ApiRecord) => record[field.name],
        header: fieldLabel(field),
        enableSorting: plan.sortable.has(field.name),
        // Set for every column: otherwise TanStack guesses the first direction from the first row's value.
        sortDescFirst: plan.sortable.get(field.name) === 'desc',
        cell: ({ row }) => {
          const key = keyField === undefined ? undefined : row.original[keyField];
          const recordKey = key === undefined || key === null ? undefined : String(key);
          return (
            <CellValue
              model={model}
              entity={entityName}
              field={field}
              value={row.original[field.name]}
              recordHref={field.name === plan.linkColumn ? recordHref(row.original) : undefined}
              recordKey={recordKey}
            />
          );
        },
      })),
    [plan, model, entityName, keyField, recordHref],
  );

  const sorting = useMemo<SortingState>(
    () => (sort ? [{ id: sort.field, desc: sort.direction === 'desc' }] : []),
    [sort],
  );
  const onSortingChange = useCallback(
    (updater: Updater<SortingState>) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      if (first) onSort({ field: first.id, direction: first.desc ? 'desc' : 'asc' });
    },
    [sorting, onSort],
  );

  const table = useReactTable({
    data: records,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (record, index) => {
      const key = keyField === undefined ? undefined : record[keyField];
      return key === undefined || key === null || typeof key === 'object' ? `#${index}` : String(key);
    },
    // The API sorts; the table only says which column is sorted and toggles the direction.
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange,
  });
  const rows = table.getRowModel().rows;

  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey: (index) => rows[index]?.id ?? index,
    // flushSync from a layout effect warns under React 19; a frame's delay is not visible.
    useFlushSync: false,
  });

  // A new page starts at its top, not where the previous page was scrolled to.
  const shownRecords = useRef(records);
  useEffect(() => {
    if (shownRecords.current === records) return;
    shownRecords.current = records;
    scrollRef.current?.scrollTo?.({ top: 0 });
  }, [records]);

  const headerGroups = table.getHeaderGroups();
  const style = {
    '--nf-columns': plan.columns.length,
    '--nf-row-height': `${ROW_HEIGHT}px`,
  } as CSSProperties;
  return (
    <section
      ref={scrollRef}
      className="nf-list-scroll"
      aria-label={label}
      aria-busy={busy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to be scrolled by keyboard
      tabIndex={0}
      data-busy={busy || undefined}
    >
      {/* A plain table styled in list.css: Mantine's Table brings its scroll container, and with it a
          positioning library, into every list's download. */}
      <table className="nf-list-table" aria-label={label} aria-rowcount={rows.length + 1} style={style}>
        <thead role="rowgroup" className="nf-list-head">
          {headerGroups.map((group) => (
            <tr key={group.id} role="row" aria-rowindex={1}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const field = plan.columns.find((item) => item.name === header.column.id);
                const content = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    role="columnheader"
                    scope="col"
                    data-numeric={field && isNumeric(field.kind) ? true : undefined}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <UnstyledButton
                        className="nf-sort-button"
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        <span className="nf-sort-label">{content}</span>
                        <span
                          aria-hidden="true"
                          className="nf-sort-arrow"
                          data-active={sorted ? true : undefined}
                        >
                          {sorted === 'desc' ? '↓' : sorted === 'asc' ? '↑' : '↕'}
                        </span>
                      </UnstyledButton>
                    ) : (
                      content
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody role="rowgroup" className="nf-list-body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <tr
                key={row.id}
                role="row"
                aria-rowindex={item.index + 2}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row.getVisibleCells().map((cell) => {
                  const field = plan.columns.find((column) => column.name === cell.column.id);
                  return (
                    <td
                      key={cell.id}
                      role="cell"
                      data-numeric={field && isNumeric(field.kind) ? true : undefined}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function isNumeric(kind: string): boolean {
  return kind === 'number' || kind === 'integer' || kind === 'money';
}
