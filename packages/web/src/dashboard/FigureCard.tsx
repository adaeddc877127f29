import { Button, Card, Group, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { FIGURE_PERIODS, type Figure, type FigureAnswer, type FigurePeriod, humanize } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useId, useMemo, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import { addEnglish } from '../i18n/catalogue';
import { figures } from '../i18n/en/figures';
import { useI18n } from '../i18n/I18nProvider';
import { loadErrorText } from '../list/load-error';
import { useReferenceNames } from '../list/useReferenceNames';
import {
  compactText,
  type FigureRow,
  type FigureWords,
  figureFields,
  figureRows,
  valueText,
} from './figure-text';

addEnglish('figures', figures);

const PERIOD_WORDS = { day: 'figures.perDay', week: 'figures.perWeek', month: 'figures.perMonth' } as const;

// The chart library comes with the first chart drawn, never with a figure that is one number.
const FigureChart = lazy(() => import('./FigureChart'));

/**
 * One figure of a dashboard: its title, and its value or its groups as a chart, with a table of the same
 * groups that screen readers always read and anyone may show instead of the chart. A figure no call
 * answers says so, rather than being computed from downloaded records.
 */
export function FigureCard({ screen, figure }: { screen: string; figure: Figure }) {
  const { model, data } = useSpec();
  const i18n = useI18n();
  const { t, format, locale } = i18n;
  const title = figure.title ?? humanize(figure.name);
  const answered = data.figure !== undefined && data.answersFigure?.(figure) === true;
  // The period the person chose for a figure over time; until then the API picks one that fits its records.
  const [per, setPer] = useState<FigurePeriod | undefined>(undefined);
  const query = useQuery({
    queryKey: ['figure', screen, figure.name, per],
    queryFn: ({ signal }) => {
      if (!data.figure) throw new Error('No call answers this figure.');
      return data.figure({ screen, figure, per, signal });
    },
    enabled: answered,
    placeholderData: (previous) => previous,
  });
  const fields = useMemo(() => figureFields(model, figure), [model, figure]);
  const groups = query.data && 'groups' in query.data ? query.data.groups : undefined;
  const records = useMemo(
    () => (fields.by && groups ? groups.map((group) => ({ [fields.by?.name ?? '']: group.key })) : []),
    [fields.by, groups],
  );
  const names = useReferenceNames(model, fields.by?.kind === 'reference' ? [fields.by] : [], records);
  const words: FigureWords = {
    format,
    locale,
    yes: t('list.yes'),
    no: t('list.no'),
    none: t('figures.none'),
    name: names.name,
  };

  let body: ReactNode;
  if (!answered) {
    body = (
      <Text size="sm" c="dimmed">
        {t('figures.notAvailable')}
      </Text>
    );
  } else if (query.isError) {
    body = (
      <Stack gap="xs" align="flex-start">
        <Text size="sm" c="red">
          {t('figures.failed', { message: loadErrorText(query.error, i18n).message })}
        </Text>
        <Button size="xs" variant="light" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('figures.retry')}
        </Button>
      </Stack>
    );
  } else if (!query.data) {
    body = (
      <div role="status">
        <VisuallyHidden>{t('figures.loading', { title })}</VisuallyHidden>
        <Skeleton height={figure.chart === 'figure' ? 36 : 200} aria-hidden="true" />
      </div>
    );
  } else {
    body = (
      <FigureBody
        figure={figure}
        answer={query.data}
        title={title}
        words={words}
        fields={fields}
        // Only the prototype API's call takes a period: a figure's own call of point 7 has one.
        onPeriod={figure.per !== undefined && figure.call === undefined ? setPer : undefined}
      />
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {figure.description ? (
          <Text size="sm" c="dimmed">
            {figure.description}
          </Text>
        ) : null}
        {body}
      </Stack>
    </Card>
  );
}

function FigureBody({
  figure,
  answer,
  title,
  words,
  fields,
  onPeriod,
}: {
  figure: Figure;
  answer: FigureAnswer;
  title: string;
  words: FigureWords;
  fields: ReturnType<typeof figureFields>;
  onPeriod: ((per: FigurePeriod) => void) | undefined;
}) {
  const { t } = useI18n();
  if ('value' in answer) {
    return (
      <>
        <Text fz={32} fw={700} lh={1.2}>
          {valueText(answer.value, fields.field, words)}
        </Text>
        {answer.value === null ? (
          <Text size="sm" c="dimmed">
            {t('figures.noValue')}
          </Text>
        ) : null}
      </>
    );
  }
  if (answer.groups.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('figures.empty')}
      </Text>
    );
  }
  const rows = figureRows(
    { ...figure, ...(answer.per ? { per: answer.per } : {}) },
    answer.groups,
    fields,
    words,
  );
  return (
    <FigureGroups
      figure={figure}
      rows={rows}
      more={answer.more}
      title={title}
      words={words}
      fields={fields}
      period={onPeriod && { per: answer.per ?? figure.per ?? 'day', choose: onPeriod }}
    />
  );
}

function FigureGroups({
  figure,
  rows,
  more,
  title,
  words,
  fields,
  period,
}: {
  figure: Figure;
  rows: FigureRow[];
  more: number;
  title: string;
  words: FigureWords;
  fields: ReturnType<typeof figureFields>;
  /** For a figure over time: the period drawn, and how the person picks another. */
  period: { per: FigurePeriod; choose: (per: FigurePeriod) => void } | undefined;
}) {
  const { t } = useI18n();
  const [asTable, setAsTable] = useState(false);
  const tableId = useId();
  const periodId = useId();
  const table = (
    <Table id={tableId} striped withTableBorder fz="sm">
      <caption>{title}</caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('figures.group')}</Table.Th>
          <Table.Th scope="col" ta="end">
            {t('figures.value')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, index) => (
          // Two groups may read alike (two customers of one name): the position tells them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their order
          <Table.Tr key={index}>
            <Table.Th scope="row" fw={400}>
              {row.label}
            </Table.Th>
            <Table.Td ta="end">{row.text}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <Stack gap="xs">
      {asTable ? (
        table
      ) : (
        <>
          {/* The chart is for the eye (inert: neither read nor focused); the table below says the same to a screen reader. */}
          <div inert>
            <Suspense fallback={<Skeleton height={220} />}>
              <FigureChart
                chart={figure.chart}
                rows={rows}
                title={title}
                format={(value) => valueText(value, fields.field, words)}
                compact={(value) => compactText(value, fields.field, words.locale)}
              />
            </Suspense>
          </div>
          <VisuallyHidden>{table}</VisuallyHidden>
        </>
      )}
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          {period ? (
            <>
              <label htmlFor={periodId} className="nf-visually-hidden">
                {t('figures.period')}
              </label>
              <select
                id={periodId}
                className="nf-figure-period"
                value={period.per}
                onChange={(event) => period.choose(event.currentTarget.value as FigurePeriod)}
              >
                {FIGURE_PERIODS.map((per) => (
                  <option key={per} value={per}>
                    {t(PERIOD_WORDS[per])}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <Text size="xs" c="dimmed">
            {more > 0 ? t('figures.more', { count: words.format.number(more) }) : ''}
          </Text>
        </Group>
        <Button
          size="compact-xs"
          variant="subtle"
          aria-pressed={asTable}
          aria-controls={tableId}
          onClick={() => setAsTable((shown) => !shown)}
        >
          {asTable ? t('figures.showChart') : t('figures.showTable')}
        </Button>
      </Group>
    </Stack>
  );
}
