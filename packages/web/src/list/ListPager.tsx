import { exhaustiveSwitchError } from '@ninefold/model';
import type { ReactNode } from 'react';
import type { ListResult } from '../data/data-provider';
import { useI18n } from '../i18n/I18nProvider';
import type { ListPlan } from './list-plan';
import { goToPage, type ListState, nextCursor, previousCursor } from './list-state';
import { pageRange } from './page-range';

export interface ListPagerProps {
  plan: ListPlan;
  state: ListState;
  result: ListResult;
  onChange(next: ListState): void;
}

/** How much of the list is shown, and the way to the other pages in the call's own pagination style. */
export function ListPager({ plan, state, result, onChange }: ListPagerProps) {
  const { t, tn, format } = useI18n();
  const count = result.items.length;
  const size = plan.pageSize ?? count;
  const pagination = plan.pagination;

  let summary: string | undefined;
  let controls: ReactNode = null;
  switch (pagination.style) {
    case 'none':
      summary = tn('list.count', result.total ?? count);
      break;
    case 'page':
    case 'offset': {
      summary = rangeText(state.page, size, count, result.total);
      if (result.total !== undefined) {
        const pages = Math.max(1, Math.ceil(result.total / Math.max(1, size)));
        if (pages > 1) {
          controls = (
            <PageButtons
              pages={pages}
              current={Math.min(state.page, pages)}
              onChange={(page) => onChange(goToPage(state, page))}
            />
          );
        }
      } else {
        // Without a total, a full page is the only sign that another may follow.
        const hasNext = result.hasNext ?? (plan.pageSize !== undefined && count >= plan.pageSize);
        controls = (state.page > 1 || hasNext) && (
          <PreviousNext
            hasPrevious={state.page > 1}
            hasNext={hasNext}
            onPrevious={() => onChange(goToPage(state, state.page - 1))}
            onNext={() => onChange(goToPage(state, state.page + 1))}
          />
        );
      }
      break;
    }
    case 'cursor': {
      const page = state.cursors.length + 1;
      summary =
        result.total === undefined
          ? t('list.page', { page: format.number(page) })
          : tn('list.count', result.total);
      const next = result.next;
      const hasNext = typeof next === 'string' && next !== '';
      controls = (state.cursors.length > 0 || hasNext) && (
        <PreviousNext
          hasPrevious={state.cursors.length > 0}
          hasNext={hasNext}
          onPrevious={() => onChange(previousCursor(state))}
          onNext={() => {
            if (hasNext) onChange(nextCursor(state, next));
          }}
        />
      );
      break;
    }
    case 'link-header':
      summary = rangeText(state.page, size, count, result.total);
      controls = (state.page > 1 || result.hasNext === true) && (
        <PreviousNext
          hasPrevious={state.page > 1}
          hasNext={result.hasNext === true}
          onPrevious={() => onChange(goToPage(state, state.page - 1))}
          onNext={() => onChange(goToPage(state, state.page + 1))}
        />
      );
      break;
    default:
      return exhaustiveSwitchError(pagination);
  }

  function rangeText(page: number, pageSize: number, shown: number, total: number | undefined): string {
    if (shown === 0) return total === undefined ? '' : tn('list.count', total);
    const from = (page - 1) * pageSize + 1;
    const to = from + shown - 1;
    return total === undefined
      ? t('list.rangeWithoutTotal', { from: format.number(from), to: format.number(to) })
      : t('list.range', { from: format.number(from), to: format.number(to), total: format.number(total) });
  }

  return (
    <div className="nf-list-pager">
      <p className="nf-list-summary" role="status" aria-live="polite">
        {summary}
      </p>
      {controls ? <nav aria-label={t('list.pagination')}>{controls}</nav> : null}
    </div>
  );
}

interface PageButtonsProps {
  pages: number;
  current: number;
  onChange(page: number): void;
}

/**
 * The pages as buttons, with the previous and next ones: plain buttons styled in list.css (Mantine's
 * Pagination was the largest part of a list's first render after its rows).
 */
function PageButtons({ pages, current, onChange }: PageButtonsProps) {
  const { t, format } = useI18n();
  return (
    <div className="nf-pages">
      <button
        type="button"
        className="nf-page"
        disabled={current <= 1}
        aria-label={t('list.previousPage')}
        onClick={() => onChange(current - 1)}
      >
        <span aria-hidden="true">‹</span>
      </button>
      {pageRange(pages, current).map((item) =>
        item.kind === 'gap' ? (
          <span key={item.key} className="nf-page-gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item.page}
            type="button"
            className="nf-page"
            data-active={item.page === current || undefined}
            aria-current={item.page === current ? 'page' : undefined}
            aria-label={t('list.pageOf', { page: format.number(item.page), pages: format.number(pages) })}
            onClick={() => onChange(item.page)}
          >
            {format.number(item.page)}
          </button>
        ),
      )}
      <button
        type="button"
        className="nf-page"
        disabled={current >= pages}
        aria-label={t('list.nextPage')}
        onClick={() => onChange(current + 1)}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}

interface PreviousNextProps {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
}

/** For styles where only the neighbouring pages are known: cursors, link headers, pages without a total. */
function PreviousNext({ hasPrevious, hasNext, onPrevious, onNext }: PreviousNextProps) {
  const { t } = useI18n();
  return (
    <div className="nf-pages">
      <button type="button" className="nf-page nf-page-text" onClick={onPrevious} disabled={!hasPrevious}>
        {t('list.previousPage')}
      </button>
      <button type="button" className="nf-page nf-page-text" onClick={onNext} disabled={!hasNext}>
        {t('list.nextPage')}
      </button>
    </div>
  );
}
