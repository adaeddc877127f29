import { MultiSelect } from '@mantine/core';

export interface EnumMultiFilterProps {
  label: string;
  data: Array<{ value: string; label: string }>;
  value: string[];
  onChange(next: string[]): void;
}

/** A filter that takes several values of an enum (the `in` operator). */
export default function EnumMultiFilter({ label, data, value, onChange }: EnumMultiFilterProps) {
  return (
    <MultiSelect
      label={label}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      comboboxProps={{ withinPortal: true }}
    />
  );
}
