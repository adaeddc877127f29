import { MultiSelect } from '@mantine/core';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';

addEnglish('form', formMessages);

export interface EnumMultiFilterProps {
  label: string;
  data: Array<{ value: string; label: string }>;
  value: string[];
  onChange(next: string[]): void;
}

/** A filter that takes several values of an enum (the `in` operator). */
export default function EnumMultiFilter({ label, data, value, onChange }: EnumMultiFilterProps) {
  const { t } = useI18n();
  return (
    <MultiSelect
      label={label}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      clearButtonProps={{ 'aria-label': t('form.clearValue', { label }) }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
