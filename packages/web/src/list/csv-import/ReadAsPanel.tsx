// How a chosen file is read, shown before anything is checked: its encoding, separator, numbers and
// dates as found, each one the person may change, and the first rows as they will be read. A part the
// file leaves open ("36.500") has no value until the person picks one: it is never guessed.
import { Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import {
  CSV_ENCODINGS,
  type CsvDateOrder,
  type CsvDecimal,
  type CsvDelimiter,
  type CsvEncoding,
  type CsvFormat,
  type DetectedFormat,
  type Entity,
  type Field,
  fieldLabel,
  type JsonValue,
  numberExample,
  readRows,
} from '@ninefold/model';
import { useSpec } from '../../app/SpecContext';
import { addEnglish } from '../../i18n/catalogue';
import { importCsv } from '../../i18n/en/importCsv';
import { useI18n } from '../../i18n/I18nProvider';
import type { CsvFile, ReadChoices } from './read-csv';

addEnglish('importCsv', importCsv);

const PREVIEW_ROWS = 3;

const ENCODING_NAMES: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
  'iso-8859-15': 'ISO-8859-15',
};

/** The encodings as a person knows them, to choose from. */
export const ENCODING_CHOICES = CSV_ENCODINGS.map((encoding) => ({
  value: encoding,
  label: ENCODING_NAMES[encoding],
}));

export interface ReadAsPanelProps {
  entity: Entity;
  file: CsvFile;
  columns: ReadonlyMap<number, Field>;
  detected: DetectedFormat;
  chosen: Partial<CsvFormat>;
  /** The format to read with, or undefined while a part is left open. */
  format: CsvFormat | undefined;
  disabled: boolean;
  onRead(choices: ReadChoices): void;
  onFormat(chosen: Partial<CsvFormat>): void;
}

export function ReadAsPanel({
  entity,
  file,
  columns,
  detected,
  chosen,
  format,
  disabled,
  onRead,
  onFormat,
}: ReadAsPanelProps) {
  const { t } = useI18n();
  const unsure = (part: keyof CsvFormat) =>
    chosen[part] === undefined ? detected.unsure.find((item) => item.part === part) : undefined;
  const decimalOpen = unsure('decimal');
  const datesOpen = unsure('dateOrder');
  const hasNumbers = [...columns.values()].some((field) =>
    ['number', 'money', 'integer'].includes(field.kind),
  );
  const hasDates = [...columns.values()].some((field) => ['date', 'datetime'].includes(field.kind));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} component="h3" m={0}>
        {t('importCsv.readAs')}
      </Text>
      {/* One box a row on a phone, where three side by side would cut their values to a few letters. */}
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} spacing="sm">
        <Select
          label={t('importCsv.encoding')}
          description={t(
            `importCsv.encodingHint_${file.encodingSource === 'utf-8' ? 'utf8' : file.encodingSource}`,
          )}
          data={ENCODING_CHOICES}
          value={file.encoding}
          // The hint below the box, so that the boxes of a row line up whatever the hint's length.
          inputWrapperOrder={['label', 'input', 'description']}
          allowDeselect={false}
          disabled={disabled}
          onChange={(value) => value && onRead({ encoding: value as CsvEncoding, delimiter: file.delimiter })}
        />
        <Select
          label={t('importCsv.delimiter')}
          data={[
            { value: ',', label: t('importCsv.delimiterComma') },
            { value: ';', label: t('importCsv.delimiterSemicolon') },
            { value: '\t', label: t('importCsv.delimiterTab') },
            { value: '|', label: t('importCsv.delimiterBar') },
          ]}
          value={file.delimiter}
          allowDeselect={false}
          disabled={disabled}
          onChange={(value) => value && onRead({ encoding: file.encoding, delimiter: value as CsvDelimiter })}
        />
        {hasNumbers ? (
          <Select
            label={t('importCsv.numbers')}
            placeholder={t('importCsv.choose')}
            data={(['.', ','] as const).map((mark) => ({ value: mark, label: numberExample(mark) }))}
            value={decimalOpen ? null : (chosen.decimal ?? detected.format.decimal)}
            allowDeselect={false}
            disabled={disabled}
            required={decimalOpen !== undefined}
            error={decimalOpen ? t('importCsv.unsureDecimal', { example: decimalOpen.example }) : undefined}
            onChange={(value) => value && onFormat({ ...chosen, decimal: value as CsvDecimal })}
          />
        ) : null}
        {hasDates ? (
          <Select
            label={t('importCsv.dates')}
            placeholder={t('importCsv.choose')}
            data={[
              { value: 'ymd', label: t('importCsv.datesIso') },
              { value: 'dmy', label: 'DD/MM/YYYY' },
              { value: 'mdy', label: 'MM/DD/YYYY' },
            ]}
            value={datesOpen ? null : (chosen.dateOrder ?? detected.format.dateOrder)}
            allowDeselect={false}
            disabled={disabled}
            required={datesOpen !== undefined}
            error={datesOpen ? t('importCsv.unsureDateOrder', { example: datesOpen.example }) : undefined}
            onChange={(value) => value && onFormat({ ...chosen, dateOrder: value as CsvDateOrder })}
          />
        ) : null}
      </SimpleGrid>
      {format && columns.size > 0 ? (
        <Preview entity={entity} file={file} columns={columns} format={format} />
      ) : null}
    </Stack>
  );
}

/** The first rows, each mapped cell as the value it will be, or why it cannot be one. */
function Preview({
  entity,
  file,
  columns,
  format,
}: {
  entity: Entity;
  file: CsvFile;
  columns: ReadonlyMap<number, Field>;
  format: CsvFormat;
}) {
  const { model } = useSpec();
  const { t, format: shown } = useI18n();
  const first = file.rows.slice(0, PREVIEW_ROWS);
  const read = readRows(model, entity, first, columns, format);
  const fields = [...columns.values()];
  const show = (value: JsonValue | undefined) =>
    value === undefined || value === null
      ? ''
      : typeof value === 'number'
        ? shown.number(value)
        : typeof value === 'boolean'
          ? t(value ? 'list.yes' : 'list.no')
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value);
  return (
    <div className="nf-import-preview">
      <Table withTableBorder captionSide="top" aria-label={t('importCsv.preview')}>
        <Table.Caption>{t('importCsv.preview')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('importCsv.row')}</Table.Th>
            {fields.map((field) => (
              <Table.Th key={field.name}>{fieldLabel(field)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {read.rows.map(({ row, values }) => {
            const errors = read.errors.get(row) ?? [];
            return (
              <Table.Tr key={row}>
                <Table.Td>{row}</Table.Td>
                {fields.map((field) => {
                  const error = errors.find((item) => item.field === field.name);
                  return (
                    <Table.Td key={field.name}>
                      {error ? (
                        <Text span size="sm" c="red.8">
                          {error.message}
                        </Text>
                      ) : (
                        show(values[field.name])
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </div>
  );
}
