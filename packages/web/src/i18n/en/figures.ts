/** A dashboard's figures and charts (point 2), with the table that stands for each chart. */
export const figures = {
  heading: 'Figures',
  loading: 'Computing {title}…',
  failed: 'This figure could not be computed: {message}',
  retry: 'Try again',
  notAvailable:
    'Not available: the API has no call that answers this figure. Point 7 may name one with the figure’s Call.',
  empty: 'No records to count yet.',
  noValue: 'No value: there are no records to average.',
  /** A donut's legend: French sets a space before the colon. */
  legendEntry: '{label}: {value}',
  showTable: 'Show as a table',
  showChart: 'Show as a chart',
  view: 'View of {title}',
  chart: 'Chart',
  table: 'Table',
  group: 'Group',
  value: 'Value',
  none: '(none)',
  more: 'and {count} more not shown',
  period: 'Period',
  perDay: 'By day',
  perWeek: 'By week',
  perMonth: 'By month',
  summary: '{title}: {count} groups, the largest {label} with {value}.',
  summaryPeriods: '{title}: {count} periods, from {first} to {last}; the latest is {value}.',
} as const;
