import '@mantine/dates/styles.css';
import { DatesProvider, DateInput as MantineDateInput } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/fr';
import type { ReactNode } from 'react';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';

addEnglish('form', formMessages);

import { dayPattern } from './date-format';

// Typed days are read by the pattern of the person's language (DD/MM/YYYY in French).
dayjs.extend(customParseFormat);

export interface DateInputProps {
  label: string;
  description?: ReactNode;
  required?: boolean;
  error?: ReactNode;
  /** `YYYY-MM-DD`, or undefined for no day. */
  value: string | undefined;
  onChange(value: string | undefined): void;
  onBlur?(): void;
  name?: string;
  min?: string;
  max?: string;
  autoFocus?: boolean;
}

/** A day typed in a pattern (`DD/MM/YYYY`) as `YYYY-MM-DD`, or undefined when it is no such day. */
export function parseDay(text: string, pattern: string): string | undefined {
  const day = dayjs(text.trim(), pattern, true);
  return day.isValid() ? day.format('YYYY-MM-DD') : undefined;
}

/**
 * A day typed in the person's language's own order, or picked from a calendar in it: Mantine's date
 * input, where the browser's would ask for its own locale's order whatever the page's language.
 */
export default function DateInput({
  label,
  description,
  required,
  error,
  value,
  onChange,
  onBlur,
  name,
  min,
  max,
  autoFocus,
}: DateInputProps) {
  const { locale, t } = useI18n();
  const pattern = dayPattern(locale);
  return (
    <DatesProvider settings={{ locale, firstDayOfWeek: locale === 'fr' ? 1 : 0 }}>
      <MantineDateInput
        label={label}
        description={description}
        required={required}
        error={error}
        value={value ?? null}
        onChange={(day) => onChange(day ?? undefined)}
        onBlur={onBlur}
        name={name}
        valueFormat={pattern}
        placeholder={locale === 'fr' ? pattern.replace(/D/g, 'J').replace(/Y/g, 'A') : pattern}
        clearable
        // The cross that empties the field is a button: a screen reader says what it clears.
        clearButtonProps={{ 'aria-label': t('form.clearValue', { label }) }}
        autoFocus={autoFocus}
        {...(min ? { minDate: min } : {})}
        {...(max ? { maxDate: max } : {})}
      />
    </DatesProvider>
  );
}
