import '@mantine/charts/styles.css';
import { BarChart, DonutChart, LineChart } from '@mantine/charts';
import { Group, Stack, Text } from '@mantine/core';
import { type FigureChart as Chart, exhaustiveSwitchError } from '@ninefold/model';
import { addEnglish } from '../i18n/catalogue';
import { figures } from '../i18n/en/figures';
import { useI18n } from '../i18n/I18nProvider';
import type { FigureRow } from './figure-text';

addEnglish('figures', figures);

/** Colours of a donut's slices, in order: Mantine's, distinct in both themes. */
const SLICES = [
  'blue.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'yellow.6',
  'red.6',
  'cyan.6',
  'lime.7',
  'pink.6',
  'indigo.6',
  'green.7',
  'violet.6',
];
const LINE = 'var(--mantine-primary-color-filled)';

/** A figure's groups drawn with @mantine/charts (Recharts, which needs no eval under the strict policy). */
export default function FigureChart({
  chart,
  rows,
  title,
  format,
  compact,
}: {
  chart: Exclude<Chart, 'figure'> | Chart;
  rows: FigureRow[];
  title: string;
  format(value: number): string;
  /** A value in few characters, for an axis: `€28K`. */
  compact(value: number): string;
}) {
  const { t } = useI18n();
  const points = rows.map((row) => ({ label: row.label, value: row.value }));
  const series = [{ name: 'value', label: title, color: LINE }];
  switch (chart) {
    case 'figure':
    case 'bar':
      // Bars lie down, so that long names (customers, products) read on the left at any width.
      return (
        <BarChart
          h={Math.max(160, rows.length * 32 + 40)}
          data={points}
          dataKey="label"
          series={series}
          orientation="vertical"
          yAxisProps={{ width: 120 }}
          valueFormatter={format}
          gridAxis="none"
          withXAxis={false}
          withBarValueLabel
          valueLabelProps={{ position: 'right', fontSize: 11 }}
          // Room on the right for the longest bar's value.
          barChartProps={{ margin: { right: 80 } }}
          barProps={{ radius: 3, maxBarSize: 26 }}
          withTooltip={false}
        />
      );
    case 'line':
      return (
        <LineChart
          h={220}
          data={points}
          dataKey="label"
          series={series}
          // Straight segments: a smoothed curve would dip below values that were never there.
          curveType="linear"
          valueFormatter={format}
          yAxisProps={{ tickFormatter: compact, width: 56, ...wholeTicks(rows) }}
          connectNulls
          withDots={rows.length <= 31}
          tickLine="none"
          gridAxis="y"
        />
      );
    case 'donut': {
      const slices = rows.map((row, index) => ({
        name: row.label,
        value: row.value ?? 0,
        color: SLICES[index % SLICES.length] ?? 'gray.6',
      }));
      return (
        <Group gap="lg" wrap="wrap" align="center">
          <DonutChart data={slices} size={160} thickness={28} valueFormatter={format} withTooltip={false} />
          <Stack gap={4}>
            {slices.map((slice, index) => (
              <Group key={slice.color} gap={8} wrap="nowrap">
                <span className="nf-swatch" style={{ background: swatch(slice.color) }} />
                <Text size="sm">
                  {t('figures.legendEntry', { label: slice.name, value: rows[index]?.text ?? '' })}
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      );
    }
    default:
      return exhaustiveSwitchError(chart);
  }
}

/**
 * Counts and other whole numbers take whole ticks ("0.5 visits" is no value anyone had), and no more of
 * them than there are values up to the largest: a day of one visit is an axis of 0 and 1, not 0 to 4.
 */
function wholeTicks(rows: readonly FigureRow[]): { allowDecimals?: false; tickCount?: number } {
  if (!rows.every((row) => row.value === null || Number.isInteger(row.value))) return {};
  const largest = Math.max(0, ...rows.map((row) => row.value ?? 0));
  return { allowDecimals: false, tickCount: Math.min(5, Math.max(2, largest + 1)) };
}

/** `blue.6` as the CSS variable Mantine defines for it. */
function swatch(color: string): string {
  const [name, shade] = color.split('.');
  return `var(--mantine-color-${name}-${shade})`;
}
