// biome-ignore-all lint/a11y/noRedundantRoles: a virtual table is laid out as grid and blocks (list.css), which strips its parts of their implicit table roles in browsers' accessibility trees, so it states them.
import { fieldLabel, type Model, type SortKey } from '@ninefold/model';
import { type CSSProperties, lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import type { ApiRecord } from '../data/data-provider';
import { columnWidth } from './column-widths';
import { isNumeric, ListRow, ROW_HEIGHT, type RowProps, rowKey } from './ListRow';
import type { ListPlan } from './list-plan';
import { useCellContext } from './useCellContext';
import './list.css';

/**
 * Up to this many records are all in the document. A paged list never has more (the prototype API's
 * largest page is 200), so only an API that answers everything at once loads the virtualizer.
 */
export const PLAIN_ROWS = 200;

/** What a long answer shows while the virtualizer loads: about a screenful, as it will be at the top. */
const FIRST_ROWS = 30;

// TanStack Virtual, for the few lists whose answer has thousands of records.
const VirtualRows = lazy(() => import('./VirtualRows').then((module) => ({ default: module.VirtualRows })));

/** A column of actions on each row: its header's (hidden) label, its width, and each row's content. */
export interface RowActionsColumnOptions {
  label: string;
  width: string;
  render(record: ApiRecord): ReactNode;
}

/** A first column per record (the selection's checkboxes), with what its header holds. */
export interface LeadingColumnOptions extends RowActionsColumnOptions {
  header: ReactNode;
}

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
  /** A last column of actions per record (the team's extension), headed by `label`. */
  rowActions?: RowActionsColumnOptions | undefined;
  leading?: LeadingColumnOptions | undefined;
}

/**
 * The records of one answer as a table. A page's rows are plain rows; past `PLAIN_ROWS`, only the rows
 * in view are in the document (TanStack Virtual), so ten thousand records scroll as smoothly as ten.
 *
 * The API sorts: a header only says which column is sorted and asks for the other direction, so no
 * table model is needed between the records and their rows.
 *
 * Virtual rows are absolutely positioned, which takes table layout away from them; explicit table roles
 * and `aria-rowcount`/`aria-rowindex` keep what assistive technology announces: a table with every row
 * counted, even those not in the document.
 */
export function ListTable({
  model,
  plan,
  label,
  records,
  sort,
  onSort,
  recordHref,
  busy,
  rowActions,
  leading,
}: ListTableProps) {
  const scrollRef = useRef<HTMLElement>(null);

  // A new page starts at its top, not where the previous page was scrolled to.
  const shownRecords = useRef(records);
  useEffect(() => {
    if (shownRecords.current === records) return;
    shownRecords.current = records;
    scrollRef.current?.scrollTo?.({ top: 0 });
  }, [records]);

  const virtual = records.length > PLAIN_ROWS;
  const cells = useCellContext(model, plan.entity?.name ?? '', plan.columns, records);
  const row: Omit<RowProps, 'record' | 'index'> = {
    plan,
    cells,
    recordHref,
    actions: rowActions?.render,
    leading: leading?.render,
  };
  // In a virtual table every row is placed at its offset, these first ones too.
  const plainRows = (count: number) =>
    records
      .slice(0, count)
      .map((record, index) => (
        <ListRow
          key={rowKey(plan, record, index)}
          record={record}
          index={index}
          {...(virtual ? { style: { transform: `translateY(${index * ROW_HEIGHT}px)` }, virtual } : {})}
          {...row}
        />
      ));
  // Each column as wide as what it holds needs (column-widths.ts): a colgroup for the plain table, a track
  // template for the virtual grid, and the sum as the narrowest the table gets before it scrolls.
  const dataWidths = plan.columns.map((field) => columnWidth(field, field.name === plan.linkColumn));
  const fixed = [leading?.width, rowActions?.width].filter((width): width is string => width !== undefined);
  const widths = [
    ...(leading ? [leading.width] : []),
    ...dataWidths.map((rem) => `${rem}rem`),
    ...(rowActions ? [rowActions.width] : []),
  ];
  const style = {
    '--nf-min-width': `calc(${[`${dataWidths.reduce((sum, rem) => sum + rem, 0)}rem`, ...fixed].join(' + ')})`,
    '--nf-template': [
      ...(leading ? [leading.width] : []),
      ...dataWidths.map((rem) => `minmax(${rem}rem, ${rem}fr)`),
      ...(rowActions ? [rowActions.width] : []),
    ].join(' '),
    '--nf-row-height': `${ROW_HEIGHT}px`,
  } as CSSProperties;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the listener follows clicks on the links inside, which the keyboard's Enter also sends
    <section
      ref={scrollRef}
      className="nf-list-scroll"
      aria-label={label}
      aria-busy={busy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to be scrolled by keyboard
      tabIndex={0}
      data-busy={busy || undefined}
      // The cells' links are plain anchors; one listener follows them inside the client. Enter on a
      // focused link is a click too, so the keyboard needs no listener of its own.
      onClick={cells.links.onClick}
    >
      {/* A plain table styled in list.css: Mantine's Table brings its scroll container, and with it a
          positioning library, into every list's download. */}
      <table
        className="nf-list-table"
        aria-label={label}
        aria-rowcount={virtual ? records.length + 1 : undefined}
        data-virtual={virtual || undefined}
        style={style}
      >
        {virtual ? null : (
          <colgroup>
            {widths.map((width, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are the plan's, in its order
              <col key={index} style={{ width }} />
            ))}
          </colgroup>
        )}
        <thead role={virtual ? 'rowgroup' : undefined} className="nf-list-head">
          <tr {...(virtual ? { role: 'row', 'aria-rowindex': 1 } : {})}>
            {leading ? (
              <th scope="col" role={virtual ? 'columnheader' : undefined} style={{ width: leading.width }}>
                {leading.header}
              </th>
            ) : null}
            {plan.columns.map((field) => (
              <HeaderCell
                key={field.name}
                plan={plan}
                field={field}
                sort={sort}
                onSort={onSort}
                virtual={virtual}
              />
            ))}
            {rowActions ? (
              <th
                scope="col"
                role={virtual ? 'columnheader' : undefined}
                className="nf-row-actions"
                style={{ width: rowActions.width }}
              >
                <span className="nf-visually-hidden">{rowActions.label}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        {!virtual ? (
          <tbody className="nf-list-body">{plainRows(records.length)}</tbody>
        ) : (
          <Suspense
            fallback={
              <tbody role="rowgroup" className="nf-list-body">
                {plainRows(FIRST_ROWS)}
              </tbody>
            }
          >
            <VirtualRows records={records} scrollRef={scrollRef} {...row} />
          </Suspense>
        )}
      </table>
    </section>
  );
}

interface HeaderCellProps {
  virtual: boolean;
  plan: ListPlan;
  field: ListPlan['columns'][number];
  sort: SortKey | undefined;
  onSort(sort: SortKey): void;
}

function HeaderCell({ virtual, plan, field, sort, onSort }: HeaderCellProps) {
  const sorted = sort?.field === field.name ? sort.direction : undefined;
  const first = plan.sortable.get(field.name);
  const label = fieldLabel(field);
  return (
    <th
      role={virtual ? 'columnheader' : undefined}
      scope="col"
      data-numeric={isNumeric(field.kind) ? true : undefined}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
    >
      {first === undefined ? (
        label
      ) : (
        <button
          type="button"
          className="nf-sort-button"
          // A sorted column turns round; another starts in the direction the spec gives it.
          onClick={() =>
            onSort({
              field: field.name,
              direction: sorted === undefined ? first : sorted === 'asc' ? 'desc' : 'asc',
            })
          }
        >
          <span className="nf-sort-label">{label}</span>
          <span aria-hidden="true" className="nf-sort-arrow" data-active={sorted ? true : undefined}>
            {sorted === 'desc' ? '↓' : sorted === 'asc' ? '↑' : '↕'}
          </span>
        </button>
      )}
    </th>
  );
}
