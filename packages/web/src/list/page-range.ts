/** One entry of a page control: a page's number, or a gap of pages not shown. */
export type PageItem = { kind: 'page'; page: number } | { kind: 'gap'; key: string };

/**
 * The pages a page control shows: the first and the last, the current one with one on each side, and a
 * gap where pages are left out, in a fixed count of entries (seven once there are more than seven pages)
 * so that the control does not change width as the person moves.
 *
 * @example
 * pageRange(10, 5); // 1 … 4 5 6 … 10
 * pageRange(10, 2); // 1 2 3 4 5 … 10
 */
export function pageRange(total: number, current: number): PageItem[] {
  const page = (n: number): PageItem => ({ kind: 'page', page: n });
  const pages = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => page(from + i));
  // First, last, the current one and its two neighbours, and a gap on each side.
  const SHOWN = 7;
  if (total <= SHOWN) return pages(1, total);
  const at = Math.min(Math.max(current, 1), total);
  if (at <= 4) return [...pages(1, 5), { kind: 'gap', key: 'end' }, page(total)];
  if (at >= total - 3) return [page(1), { kind: 'gap', key: 'start' }, ...pages(total - 4, total)];
  return [
    page(1),
    { kind: 'gap', key: 'start' },
    ...pages(at - 1, at + 1),
    { kind: 'gap', key: 'end' },
    page(total),
  ];
}
