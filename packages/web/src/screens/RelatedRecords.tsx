import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import {
  type Call,
  checkScreen,
  type Entity,
  entityPlural,
  type Field,
  fieldAccess,
  fieldLabel,
  findEntity,
  type Model,
  referringFields,
  type Screen,
} from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../app/router';
import { rowDetail, screenFor, screensOf } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import type { DataProvider } from '../data/data-provider';
import { FieldDisplay } from '../fields/FieldDisplay';
import { FieldTable } from '../fields/FieldTable';
import { firstPage } from '../form/first-page';
import { recordPath } from '../form/record-path';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { type SessionValue, useSession } from '../session/SessionContext';
import { settle } from './access-policy';

addEnglish('form', formMessages);

/** Records shown under a record per related list; the rest are one link away. */
const SHOWN = 5;

/** A list of records that point at this one: the customer's orders on the customer's page. */
export interface RelatedList {
  entity: Entity;
  /** The reference field that points here (`Order.customer`). */
  field: Field;
  /** The list screen the role may open, whose columns and title it borrows. */
  screen: Extract<Screen, { kind: 'list' }>;
  /** The list call that filters on the field with `eq`. */
  call: Call;
  /** Its heading: the screen's title, with the field's label when one entity points here twice. */
  title: string;
  /** A create screen the role may open, to start a record already pointing here. */
  create: Screen | undefined;
}

/**
 * The lists a record's page shows below it: for each reference to its entity (point 3), the referring
 * entity's list screen that the role may open, when point 7 gives a list call that filters that
 * reference by `eq`. Nothing is invented: without such a call or screen, there is no list to show.
 */
export function relatedLists(
  model: Model,
  data: DataProvider,
  session: SessionValue,
  entity: string,
): RelatedList[] {
  const allowed = (screen: Screen) => settle(checkScreen(model, session.principal, screen), session).allowed;
  const found = referringFields(model, entity).flatMap(({ entity: from, field }) => {
    if (fieldAccess(model, session.principal, from.name).hidden.has(field.name)) return [];
    const screen = screensOf(model).find(
      (candidate): candidate is Extract<Screen, { kind: 'list' }> =>
        candidate.kind === 'list' &&
        candidate.entity === from.name &&
        !candidate.route.includes(':') &&
        allowed(candidate),
    );
    const call = data
      .calls(from.name)
      .lists.find(
        (list) =>
          !list.parameters.some((parameter) => parameter.in === 'path') &&
          list.filters.some((filter) => filter.field === field.name && filter.op === 'eq'),
      );
    if (!screen || !call) return [];
    const create = screenFor(model, 'create', from.name);
    const creates = create && data.calls(from.name).create && allowed(create) ? create : undefined;
    return [{ entity: from, field, screen, call, create: creates }];
  });
  return found.map((list) => {
    const twice = found.filter((other) => other.entity.name === list.entity.name).length > 1;
    const title = list.screen.title ?? entityPlural(list.entity);
    return { ...list, title: twice ? `${title} (${fieldLabel(list.field)})` : title };
  });
}

/** The related lists of a record, each a short table with its count and links. */
export function RelatedRecords({ entity, id }: { entity: Entity; id: string }) {
  const { model, data } = useSpec();
  const session = useSession();
  const lists = relatedLists(model, data, session, entity.name);
  if (lists.length === 0) return null;
  return (
    <Stack gap="lg">
      {lists.map((list) => (
        <RelatedTable key={`${list.entity.name}.${list.field.name}`} list={list} id={id} />
      ))}
    </Stack>
  );
}

function RelatedTable({ list, id }: { list: RelatedList; id: string }) {
  const { model, data } = useSpec();
  const { t } = useI18n();
  const session = useSession();
  const { entity, field, screen, call } = list;
  const query = useQuery({
    // Under `['list', entity]`, so that a write to the entity marks it stale like every list of it.
    queryKey: ['list', entity.name, 'related', field.name, id],
    queryFn: ({ signal }) =>
      data.list({
        entity: entity.name,
        call: call.name,
        page: firstPage(call.pagination, SHOWN),
        sort: [],
        filters: [{ field: field.name, op: 'eq', value: id }],
        signal,
      }),
  });
  const { hidden } = fieldAccess(model, session.principal, entity.name);
  const columns = (screen.columns ?? [entity.display ?? entity.key ?? 'id'])
    .filter((name) => name !== field.name && !hidden.has(name))
    .flatMap((name) => entity.fields.filter((candidate) => candidate.name === name));
  const detail = rowDetail(model, entity.name, screen.route);
  const opens = detail && settle(checkScreen(model, session.principal, detail), session).allowed;
  const key = entity.key ?? 'id';
  const filtered = screen.filters?.includes(field.name)
    ? `${screen.route}?${field.name}=${encodeURIComponent(id)}`
    : undefined;
  const items = (query.data?.items ?? []).slice(0, SHOWN);
  const total = query.data?.total;
  const headingId = `nf-related-${entity.name}-${field.name}`;

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {list.title}
        </Title>
        {list.create ? (
          <Button
            component={Link}
            to={`${list.create.route}?${field.name}=${encodeURIComponent(id)}`}
            variant="light"
            size="xs"
          >
            {list.create.title ??
              t('form.relatedNew', { entity: findEntity(model, entity.name)?.label ?? entity.name })}
          </Button>
        ) : null}
      </Group>
      {query.isError ? (
        <Text size="sm" c="red">
          {t('form.relatedFailed')}
        </Text>
      ) : query.isPending ? (
        <Text size="sm" c="dimmed" aria-busy="true">
          {t('form.relatedLoading')}
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('form.relatedNone')}
        </Text>
      ) : (
        <FieldTable
          columns={columns}
          rows={items.map((record, index) => ({ key: String(record[key] ?? index), values: record }))}
          label={{ by: headingId }}
          cell={(column, record) => {
            const recordId = record[key];
            const to =
              opens && detail && (typeof recordId === 'string' || typeof recordId === 'number')
                ? recordPath(detail.route, String(recordId))
                : undefined;
            // The first column leads to the record, unless it is itself a reference (a link of its own).
            return column === columns[0] && to && column.kind !== 'reference' ? (
              <Anchor component={Link} to={to} inherit>
                <FieldDisplay field={column} value={record[column.name]} model={model} place="cell" />
              </Anchor>
            ) : (
              <FieldDisplay
                field={column}
                value={record[column.name]}
                model={model}
                entity={entity.name}
                place="cell"
              />
            );
          }}
        />
      )}
      {items.length > 0 && (total === undefined || total > items.length || filtered) ? (
        <Group gap="sm">
          {total !== undefined ? (
            <Text size="sm" c="dimmed">
              {t('form.relatedShowing', { shown: items.length, total })}
            </Text>
          ) : null}
          {filtered ? (
            <Anchor component={Link} to={filtered} size="sm">
              {t('form.relatedSeeAll', { title: list.title })}
            </Anchor>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}
