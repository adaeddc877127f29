import { exhaustiveSwitchError, type Field, fieldLabel } from '@ninefold/model';
import { useId } from 'react';
import type { ApiRecord } from '../data/data-provider';
import { useI18n } from '../i18n/I18nProvider';
import { type CellContext, cellContent } from './cell-content';
import { rowKey } from './ListRow';
import type { ListTableProps } from './ListTable';
import { useCellContext } from './useCellContext';
import './list.css';

export type ListCardsProps = ListTableProps;

/**
 * The records of one answer as a phone's cards: each record's name (its link), its state badge, and the
 * card's few fields, labelled. A table's header sorted; here a menu of the same sorts does. Long answers
 * stay cheap without a virtualizer: cards off-screen are not laid out (`content-visibility`, list.css).
 */
export function ListCards({
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
}: ListCardsProps) {
  const { card } = plan;
  const shown = [card.title, card.state, ...card.fields].filter(
    (field): field is Field => field !== undefined,
  );
  const cells = useCellContext(model, plan.entity?.name ?? '', shown, records);
  const keyField = plan.entity?.key;
  return (
    <div className="nf-list-cards-box">
      {plan.sortable.size > 0 ? <SortMenu plan={plan} sort={sort} onSort={onSort} /> : null}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the listener follows clicks on the links inside, which the keyboard's Enter also sends */}
      <ul
        className="nf-list-cards"
        aria-label={label}
        aria-busy={busy}
        data-busy={busy || undefined}
        onClick={cells.links.onClick}
      >
        {records.map((record, index) => {
          const key = keyField === undefined ? undefined : record[keyField];
          const href = recordHref(record);
          return (
            <li key={rowKey(plan, record, index)} className="nf-card">
              {leading ? <div className="nf-card-leading">{leading.render(record)}</div> : null}
              <div className="nf-card-main">
                <div className="nf-card-head">
                  {card.title ? (
                    <span className="nf-card-title">
                      {cellContent(
                        card.title,
                        record[card.title.name],
                        href === undefined
                          ? undefined
                          : { href, key: key === undefined || key === null ? undefined : String(key) },
                        cells,
                      )}
                    </span>
                  ) : null}
                  {card.state ? cellContent(card.state, record[card.state.name], undefined, cells) : null}
                </div>
                {card.fields.length > 0 ? (
                  <CardFields fields={card.fields} record={record} cells={cells} />
                ) : null}
              </div>
              {rowActions ? <div className="nf-card-actions">{rowActions.render(record)}</div> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function CardFields({ fields, record, cells }: { fields: Field[]; record: ApiRecord; cells: CellContext }) {
  return (
    <dl className="nf-card-fields">
      {fields.map((field) => {
        const content = cellContent(field, record[field.name], undefined, cells);
        return (
          <div key={field.name}>
            <dt>{fieldLabel(field)}</dt>
            <dd>{content === null || content === '' ? '—' : content}</dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The sorts a table's headers offer, as one menu: each sortable field, either way. */
function SortMenu({ plan, sort, onSort }: Pick<ListCardsProps, 'plan' | 'sort' | 'onSort'>) {
  const { t } = useI18n();
  const id = useId();
  const fields = plan.columns.filter((field) => plan.sortable.has(field.name));
  const value = sort === undefined ? '' : `${sort.direction}:${sort.field}`;
  return (
    <div className="nf-card-sort">
      <label htmlFor={id}>{t('list.sortBy')}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const [direction, field] = event.currentTarget.value.split(/:(.*)/s);
          if (field !== undefined && (direction === 'asc' || direction === 'desc'))
            onSort({ field, direction });
        }}
      >
        {sort === undefined ? <option value="">{t('list.sortNone')}</option> : null}
        {fields.flatMap((field) => {
          const label = fieldLabel(field);
          return (['asc', 'desc'] as const).map((direction) => (
            <option key={`${direction}:${field.name}`} value={`${direction}:${field.name}`}>
              {t(sortWords(field.kind)[direction], { label })}
            </option>
          ));
        })}
      </select>
    </div>
  );
}

/** A sort's words by what the field holds: dates oldest or newest first, numbers lowest or highest. */
function sortWords(kind: Field['kind']) {
  switch (kind) {
    case 'date':
    case 'datetime':
      return { asc: 'list.sortOldest', desc: 'list.sortNewest' } as const;
    case 'number':
    case 'integer':
    case 'money':
      return { asc: 'list.sortLowest', desc: 'list.sortHighest' } as const;
    case 'boolean':
      return { asc: 'list.sortNoFirst', desc: 'list.sortYesFirst' } as const;
    case 'text':
    case 'markdown':
    case 'enum':
    case 'reference':
    case 'file':
    case 'object':
    case 'list':
      return { asc: 'list.sortAtoZ', desc: 'list.sortZtoA' } as const;
    default:
      throw exhaustiveSwitchError(kind);
  }
}
