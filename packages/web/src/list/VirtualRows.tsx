// biome-ignore-all lint/a11y/noRedundantRoles: the body is laid out as a grid (list.css), which strips its implicit role, so the role is stated.
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';
import type { ApiRecord } from '../data/data-provider';
import { ListRow, ROW_HEIGHT, type RowProps, rowKey } from './ListRow';

const OVERSCAN = 12;

export interface VirtualRowsProps extends Omit<RowProps, 'record' | 'index' | 'style'> {
  records: ApiRecord[];
  scrollRef: RefObject<HTMLElement | null>;
}

/** The rows in view of a long answer, each placed at its offset in a body as tall as all of them. */
export function VirtualRows({ records, scrollRef, ...row }: VirtualRowsProps) {
  const virtualizer = useVirtualizer({
    count: records.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey: (index) => {
      const record = records[index];
      return record ? rowKey(row.plan, record, index) : index;
    },
    // flushSync from a layout effect warns under React 19; a frame's delay is not visible.
    useFlushSync: false,
  });
  return (
    <tbody role="rowgroup" className="nf-list-body" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => {
        const record = records[item.index];
        if (!record) return null;
        return (
          <ListRow
            key={item.key}
            record={record}
            index={item.index}
            style={{ transform: `translateY(${item.start}px)` }}
            virtual
            {...row}
          />
        );
      })}
    </tbody>
  );
}
