import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import {
  checkGrant,
  checkScreen,
  type Entity,
  entityFileName,
  entityLabel,
  entityPlural,
  fieldAccess,
  findEntity,
  humanize,
  type Model,
  machineOf,
  type SortKey,
  transitionGrant,
} from '@ninefold/model';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { withLaterStyles } from '../app/later-styles';
import { Link } from '../app/router';
import { parentDetail, routeByPosition, routeTo, rowDetail, screenBelow } from '../app/routes';
import { useScreenParams } from '../app/ScreenParams';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import type { ApiRecord, EntityCalls } from '../data/data-provider';
import { useHasRowActions } from '../extension/action-places';
import { Slot } from '../extension/Slot';
import { RowActionsController } from '../extension/useRowActionsColumn';
import { routeParamNames } from '../form/record-path';
import { useI18n } from '../i18n/I18nProvider';
import { personKey, readStored, useHiddenColumns, usePageSize } from '../list/column-prefs';
import { ListActions } from '../list/ListActions';
import { ListError } from '../list/ListError';
import { ListFilters } from '../list/ListFilters';
import { ListPager } from '../list/ListPager';
import { ListSkeleton } from '../list/ListSkeleton';
import { type LeadingColumnOptions, ListTable, type RowActionsColumnOptions } from '../list/ListTable';
import { planList } from '../list/list-plan';
import { listQueryKey } from '../list/list-query-key';
import {
  clearFilters,
  effectiveSort,
  goToPage,
  hasFilters,
  parseListState,
  setFilter,
  setSearch,
  setSort,
  toListParams,
  writeListState,
} from '../list/list-state';
import { PHONE_QUERY, usePhoneList } from '../list/phone-list';
import { useListQuery } from '../list/useListQuery';
import { useListState } from '../list/useListState';
import { type SessionValue, useSession } from '../session/SessionContext';
import { settle } from './access-policy';

// Selecting records and changing them together loads when the person asks to select.
const BulkSelect = lazy(withLaterStyles(() => import('../list/BulkSelect')));
// A phone's cards load on a phone only: a desk never downloads them.
type Cards = typeof import('../list/ListCards').ListCards;
let cardsModule: Promise<Cards> | undefined;
/** The cards once their code is here: a later list draws them at once. */
let loadedCards: Cards | undefined;
const loadCards = (): Promise<Cards> => {
  cardsModule ??= import('../list/ListCards').then(
    (module) => {
      loadedCards = module.ListCards;
      return module.ListCards;
    },
    (error: unknown) => {
      // Asked again at the next render: a load that failed offline may work once the device is back.
      cardsModule = undefined;
      throw error;
    },
  );
  return cardsModule;
};
/**
 * The cards' component on a phone once its code is here (a first list's `prefetch` loads it with the
 * records), and a render when it comes. Not `lazy`: a lazy component suspends, and React holds a
 * suspended list's skeleton for 300 ms even when the code comes sooner; a phone's first list took 1.1 s
 * against a desk's 0.9 s.
 */
function usePhoneCards(phone: boolean): Cards | undefined {
  const [loaded, setLoaded] = useState<{ cards?: Cards; error?: unknown }>(() =>
    loadedCards ? { cards: loadedCards } : {},
  );
  useEffect(() => {
    if (!phone || loaded.cards || loaded.error) return;
    let live = true;
    loadCards().then(
      (cards) => live && setLoaded({ cards }),
      (error: unknown) => live && setLoaded({ error }),
    );
    return () => {
      live = false;
    };
  }, [phone, loaded]);
  // To the screen's error boundary, as a lazy component's failed load went.
  if (loaded.error) throw loaded.error;
  return phone ? loaded.cards : undefined;
}

import type { PrefetchContext, ScreenProps } from './screen-props';

/**
 * A list screen of point 2: the records of an entity a page at a time, sorted, filtered and paged by the
 * API as its list call allows, with the whole state in the address. A role (point 6) sees no column or
 * filter of a field it may not read, and the "New …" button only if it may create.
 */
export default function ListScreen({ screen }: ScreenProps<'list'>) {
  const { model, data } = useSpec();
  const { t } = useI18n();
  const session = useSession();
  const { principal } = session;
  const routeParams = useScreenParams();
  // Field access depends on the role alone; keyed on it, the plan survives a new principal object.
  const role = principal.role;
  const { hidden } = useMemo(
    () => fieldAccess(model, role === undefined ? {} : { role }, screen.entity),
    [model, role, screen.entity],
  );
  const plan = useMemo(
    () => planList(model, screen, data.calls(screen.entity), hidden),
    [model, screen, data, hidden],
  );
  const entity = plan.entity;
  const title = screen.title ?? (entity ? entityPlural(entity) : humanize(screen.name));
  useDocumentTitle(title);

  const { state, update } = useListState(plan);
  // The columns this person chose to hide here (in this browser); the one that opens a record stays.
  const person = principal.user?.id ?? principal.user?.email;
  const [hiddenColumns, setHiddenColumns] = useHiddenColumns(
    screen.name,
    person === undefined || person === null ? undefined : String(person),
  );
  const [pageSize, setPageSize] = usePageSize(
    screen.name,
    person === undefined || person === null ? undefined : String(person),
  );
  const sized = useMemo(
    () => (pageSize !== undefined && plan.pageSize !== undefined ? { ...plan, pageSize } : plan),
    [plan, pageSize],
  );
  const tablePlan = useMemo(() => {
    const columns = plan.columns.filter(
      (field) => field.name === plan.linkColumn || !hiddenColumns.includes(field.name),
    );
    return columns.length === plan.columns.length ? plan : { ...plan, columns };
  }, [plan, hiddenColumns]);
  const path = useMemo(() => definedParams(routeParams), [routeParams]);
  const params = useMemo(() => toListParams(sized, state, path), [sized, state, path]);
  const query = useListQuery(
    params,
    entity !== undefined && plan.call !== undefined && plan.columns.length > 0,
  );

  const found = entity ? rowDetail(model, entity.name, screen.route) : undefined;
  // A row links to a detail screen only if the role may see it.
  const detail = found && settle(checkScreen(model, principal, found), session).allowed ? found : undefined;
  const keyField = entity?.key;
  const recordHref = useCallback(
    (record: ApiRecord): string | undefined => {
      if (!detail || keyField === undefined) return undefined;
      const key = record[keyField];
      if (typeof key !== 'string' && typeof key !== 'number') return undefined;
      // The detail screen reads its record's id from its route's last parameter, whatever its name
      // (`/fine-tunes/:fine_tune_id` for a key named `id`); the ones before it are this list's parents
      // (`/stores/:id/employees/:employeeId`), which the key must not overwrite.
      const last = routeParamNames(detail.route).at(-1);
      if (last === undefined) return undefined;
      const href = routeTo(detail.route, { ...path, [last]: key });
      // A detail route with a parameter this list cannot fill has no address to link to.
      return href.includes('/:') ? undefined : href;
    },
    [detail, keyField, path],
  );
  const onSort = useCallback((sort: SortKey) => update(setSort(state, plan, sort)), [update, state, plan]);
  // A build constant: the same on every render, and without an extension this code is left out.
  // biome-ignore lint/correctness/useHookAtTopLevel: __NINEFOLD_EXTENSION__ is fixed for a build
  const withRowActions = __NINEFOLD_EXTENSION__ ? useHasRowActions(entity?.name) : false;

  const busy = query.isFetching && query.isPlaceholderData;
  const [selecting, setSelecting] = useState(false);
  const phone = usePhoneList();
  const ListCards = usePhoneCards(phone);
  // Offered where this role could do something to several records (delete them, or take a step of
  // point 4 its grants allow on some record); the selection then says what, record by record.
  const canSelect =
    entity?.key !== undefined && mayActOnSelection(model, session, entity, data.calls(screen.entity));
  const createScreen = entity ? screenBelow(model, 'create', entity.name, screen.route) : undefined;
  const createHref =
    createScreen && plan.creatable && settle(checkScreen(model, principal, createScreen), session).allowed
      ? routeTo(createScreen.route, path)
      : undefined;
  const plural = entity ? entityPlural(entity) : title;

  const parent = parentDetail(model, screen.route);
  const parentEntity = parent?.kind === 'detail' ? findEntity(model, parent.entity) : undefined;
  const parentHref = parent ? routeByPosition(parent.route, screen.route, path) : undefined;
  // The parent's own id is the last value its route takes, i.e. the list's parameter at that position.
  const parentId = parentHref && decodeURIComponent(parentHref.slice(parentHref.lastIndexOf('/') + 1));
  const header = (
    // Plain elements styled in list.css: Mantine's Group, Title and Button were most of the screen's
    // own render time, around a few words.
    <div className="nf-list-header">
      {parentHref !== undefined && !parentHref.includes('/:') && parentEntity ? (
        <Link className="nf-cell-link nf-list-parent" to={parentHref}>
          ← {t('list.parent', { entity: entityLabel(parentEntity), id: parentId ?? '' })}
        </Link>
      ) : null}
      <div className="nf-list-title-row">
        <h1 className="nf-list-title">{title}</h1>
        {busy ? <Loader size="xs" aria-hidden="true" /> : null}
      </div>
      <div className="nf-list-actions">
        {entity && plan.call ? (
          <ListActions
            params={params}
            name={entityFileName(entity)}
            columns={plan.columns}
            locked={plan.linkColumn}
            hidden={hiddenColumns}
            onHiddenChange={setHiddenColumns}
            onSelect={canSelect && !selecting ? () => setSelecting(true) : undefined}
            // Where the role may open the create screen: the rules' own engine stays out of the list's code.
            importInto={data.importRows && createHref !== undefined ? entity : undefined}
            {...(plan.pageSize !== undefined
              ? {
                  paging: {
                    pagination: plan.pagination,
                    screenSize: plan.pageSize,
                    chosen: pageSize,
                    onChange: (size: number | undefined) => {
                      setPageSize(size);
                      update(goToPage({ ...state, cursors: [] }, 1));
                    },
                  },
                }
              : {})}
            views={{
              screen: screen.name,
              person: person === undefined || person === null ? undefined : String(person),
              current: {
                query: writeListState({ ...state, page: 1, cursors: [] }, plan).toString(),
                hidden: [...hiddenColumns],
                ...(pageSize === undefined ? {} : { pageSize }),
              },
              onApply: (view) => {
                setHiddenColumns(view.hidden);
                setPageSize(view.pageSize);
                update(parseListState(new URLSearchParams(view.query), plan));
              },
            }}
          />
        ) : null}
        {createHref !== undefined && !createHref.includes('/:') ? (
          <Link className="nf-button" to={createHref} aria-keyshortcuts="n">
            {createScreen?.title ?? t('list.newRecord', { entity: entity ? entityLabel(entity) : '' })}
          </Link>
        ) : null}
      </div>
    </div>
  );

  if (!entity) {
    return (
      <Stack gap={0}>
        {header}
        <Alert color="yellow">{t('list.noEntity', { entity: screen.entity })}</Alert>
      </Stack>
    );
  }
  if (!plan.call) {
    return (
      <Stack gap={0}>
        {header}
        <Alert color="yellow">{t('list.noListCall', { entity: plural })}</Alert>
      </Stack>
    );
  }
  if (plan.columns.length === 0) {
    return (
      <Stack gap={0}>
        {header}
        <Alert color="yellow">{t('list.noColumns')}</Alert>
      </Stack>
    );
  }

  const filtered = hasFilters(state);
  const result = query.data;
  // The body with the column the extension's row actions give the table, if any (RowActionsController).
  const bodyWith = (rowActions?: RowActionsColumnOptions, leading?: LeadingColumnOptions): ReactNode => {
    if (query.isError) {
      return (
        <ListError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      );
    }
    if (!result) {
      return <ListSkeleton label={t('list.loading', { title })} />;
    }
    if (result.items.length === 0) {
      return (
        <EmptyList
          message={
            state.page > 1 || state.cursors.length > 0
              ? t('list.pastEnd')
              : filtered
                ? t('list.emptyFiltered', { plural: lowerFirst(plural) })
                : t('list.empty', { plural: lowerFirst(plural) })
          }
          action={
            state.page > 1 || state.cursors.length > 0
              ? { label: t('list.goToFirstPage'), run: () => update({ ...goToPage(state, 1), cursors: [] }) }
              : filtered
                ? { label: t('list.clearFilters'), run: () => update(clearFilters(state)) }
                : undefined
          }
        />
      );
    }
    const shown = {
      model,
      label: title,
      records: result.items,
      sort: effectiveSort(state, plan),
      onSort,
      recordHref,
      busy,
      rowActions,
      leading,
    };
    if (phone) {
      return ListCards ? (
        <ListCards plan={plan} {...shown} />
      ) : (
        <ListSkeleton label={t('list.loading', { title })} />
      );
    }
    return <ListTable plan={tablePlan} {...shown} />;
  };
  // While selecting, the body comes with a first column of checkboxes and the selection's tools above.
  const selectable = (rowActions?: RowActionsColumnOptions): ReactNode =>
    selecting ? (
      <Suspense fallback={bodyWith(rowActions)}>
        <BulkSelect
          entity={entity}
          params={params}
          pageSize={plan.pageSize}
          records={result?.items ?? []}
          total={result?.total}
          path={path}
          render={(leading) => bodyWith(rowActions, leading)}
          onDone={() => setSelecting(false)}
        />
      </Suspense>
    ) : (
      bodyWith(rowActions)
    );
  const body =
    __NINEFOLD_EXTENSION__ && withRowActions ? (
      <RowActionsController screen={screen} entity={entity} path={path} render={selectable} />
    ) : (
      selectable()
    );

  return (
    <div className="nf-list-screen">
      {header}
      {screen.description ? <p className="nf-list-description">{screen.description}</p> : null}
      <ListFilters
        filters={plan.filters}
        values={state.filters}
        onChange={(field, value) => update(setFilter(state, field, value))}
        onClear={() => update(clearFilters(state))}
        folded={phone}
        {...(plan.searchable
          ? {
              search: {
                label: t('list.search', { plural: lowerFirst(plural) }),
                value: state.search,
                onChange: (text: string) => update(setSearch(state, text)),
              },
            }
          : {})}
      />
      <Slot
        name="listToolbar"
        slotKey={entity.name}
        props={{ screen, entity, records: result?.items ?? [] }}
      />
      <span className="nf-visually-hidden" role="status">
        {busy ? t('list.updating') : ''}
      </span>
      {body}
      {result && !query.isError && result.items.length > 0 ? (
        <ListPager plan={plan} state={state} result={result} onChange={update} />
      ) : null}
    </div>
  );
}

function EmptyList({
  message,
  action,
}: {
  message: string;
  action?: { label: string; run(): void } | undefined;
}) {
  return (
    <Stack align="flex-start" gap="sm" py="lg">
      <Text fw={500}>{message}</Text>
      {action ? (
        <Button variant="light" onClick={action.run}>
          {action.label}
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * Starts the first page's call as soon as the screen's code is loaded, with the same parameters and
 * query key the screen will ask for, so that the call and the first render overlap. Nothing is asked
 * for a screen the principal may not see: it will show a refusal, not the records.
 */
export async function prefetch({
  model,
  screen,
  data,
  queryClient,
  params,
  search,
  session = UNKNOWN_SESSION,
}: PrefetchContext<'list'>): Promise<void> {
  if (!settle(checkScreen(model, session.principal, screen), session).allowed) return;
  const { hidden } = fieldAccess(model, session.principal, screen.entity);
  const planned = planList(model, screen, data.calls(screen.entity), hidden);
  if (planned.entity === undefined || planned.call === undefined || planned.columns.length === 0) return;
  // The page the screen will ask for: in the person's own page size, if they chose one.
  const person = session.principal.user?.id ?? session.principal.user?.email;
  const chosen = readStored(
    personKey('page-size', screen.name, person == null ? undefined : String(person)),
    (value) => (typeof value === 'number' ? value : undefined),
  );
  const plan =
    chosen !== undefined && planned.pageSize !== undefined ? { ...planned, pageSize: chosen } : planned;
  const listParams = toListParams(plan, parseListState(new URLSearchParams(search), plan), params);
  const phone = typeof window !== 'undefined' && window.matchMedia?.(PHONE_QUERY).matches;
  await Promise.all([
    queryClient.prefetchQuery({
      queryKey: listQueryKey(listParams),
      queryFn: ({ signal }) => data.list({ ...listParams, signal }),
    }),
    // A phone's first list draws cards: their code is waited for with the records, so that the first
    // render has both and draws the cards, not a skeleton and then the cards.
    phone ? loadCards().catch(() => {}) : undefined,
  ]);
}

const UNKNOWN_SESSION: SessionValue = { state: { status: 'none' }, principal: {} };

function definedParams(params: Record<string, string | undefined>): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) if (value !== undefined) defined[name] = value;
  return defined;
}

/** "Orders" -> "orders" inside a sentence; "SKUs" stays as written. */
function lowerFirst(text: string): string {
  const second = text.charAt(1);
  return second !== '' && second === second.toLocaleLowerCase()
    ? text.charAt(0).toLocaleLowerCase() + text.slice(1)
    : text;
}

/** Whether the role has a call and a grant to delete records of the entity, or to take one of its steps. */
function mayActOnSelection(model: Model, session: SessionValue, entity: Entity, calls: EntityCalls): boolean {
  const { principal } = session;
  const deletes = checkGrant(model, principal, entity.name, 'delete');
  if (calls.delete !== undefined && settle(deletes, session).allowed) return true;
  const machine = machineOf(model, entity);
  return (
    machine?.transitions.some(
      (transition) =>
        calls.transitions[transition.name] !== undefined &&
        settle(transitionGrant(model, principal, machine, transition), session).allowed,
    ) ?? false
  );
}
