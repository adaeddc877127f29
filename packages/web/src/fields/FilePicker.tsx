import { Button, Group, Input, Stack, Text } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { formatAmount, toBytes } from '@ninefold/model';
import { type ChangeEvent, useRef } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { isFile, isStoredFile } from '../form/form-values';
import { useFieldError } from '../form/useFieldError';
import { addEnglish } from '../i18n/catalogue';
import { drafts } from '../i18n/en/drafts';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import type { InputProps } from './FieldInput';
import { formatBytes } from './format-bytes';

addEnglish('form', formMessages);

addEnglish('drafts', drafts);

/**
 * A file: the browser's own picker (keyboard operable and announced as such), limited to the accepted
 * types, then the chosen file's name and size, or the stored file's when editing, with a way to remove it.
 * A chosen file larger than the limit of point 5 (a constant of point 9 such as 5 MB) is said at once,
 * rather than on save after a long upload.
 */
export function FilePicker({ field, name, label, description, required, bounds }: InputProps<'file'>) {
  const { t, locale } = useI18n();
  const { field: control } = useController({ name });
  const { clearErrors, getFieldState } = useFormContext();
  const error = useFieldError(name);
  const input = useRef<HTMLInputElement>(null);
  const ref = useMergedRef(input, control.ref);
  const accept = field.accept?.length ? field.accept.join(',') : undefined;
  const said =
    [description, accept ? t('form.hintAccept', { types: field.accept?.join(', ') ?? '' }) : undefined]
      .filter(Boolean)
      .join(' · ') || undefined;
  const value: unknown = control.value;
  const current = isFile(value) || isStoredFile(value) ? value : undefined;
  const size = current && typeof current.size === 'number' ? formatBytes(current.size, locale) : '';
  const maxBytes = bounds.max ? toBytes(bounds.max) : undefined;
  const tooLarge = isFile(current) && maxBytes !== undefined && current.size > maxBytes;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    // Closing the picker without a choice keeps what was there.
    if (!file) return;
    control.onChange(file);
    if (getFieldState(name).error) clearErrors(name);
  };
  const removeFile = () => {
    control.onChange(null);
    if (input.current) input.current.value = '';
  };

  return (
    <Stack gap={4}>
      <Input.Wrapper label={label} description={said} error={error} required={required}>
        <Input
          component="input"
          type="file"
          accept={accept}
          ref={ref}
          name={control.name}
          onChange={choose}
          onBlur={control.onBlur}
          error={error !== undefined}
          required={required}
          pointer
          styles={{ input: { paddingTop: 6 } }}
        />
      </Input.Wrapper>
      {current ? (
        <Group gap="xs" wrap="wrap">
          <Text size="sm">
            {t(isFile(current) ? 'form.fileChosen' : 'form.fileStored', {
              name: size ? t('form.fileDescription', { name: current.name, size }) : current.name,
            })}
          </Text>
          <Button variant="subtle" size="compact-sm" color="red" onClick={removeFile}>
            {t('form.removeFile')}
          </Button>
        </Group>
      ) : null}
      <Text size="sm" c="red" aria-live="polite">
        {tooLarge && bounds.max
          ? t('drafts.fileTooLarge', {
              size,
              max: bounds.max.unit ? formatAmount(bounds.max, locale) : formatBytes(maxBytes ?? 0, locale),
            })
          : null}
      </Text>
    </Stack>
  );
}
