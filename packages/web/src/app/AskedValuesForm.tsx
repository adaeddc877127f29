import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { humanize, type Parameter } from '@ninefold/model';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';

/** The short form that asks, once, for the values the API's calls need and no screen can give. */
export default function AskedValuesForm({
  parameters,
  onSave,
}: {
  parameters: Parameter[];
  onSave(values: Record<string, string>): void;
}) {
  const { t } = useI18n();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given = Object.fromEntries(
      Object.entries(typed)
        .map(([name, value]) => [name, value.trim()] as const)
        .filter(([, value]) => value !== ''),
    );
    onSave(given);
  };
  return (
    <Alert color="blue" title={t('shell.askedTitle')} maw={560}>
      <form onSubmit={submit}>
        <Stack gap="sm">
          {t('shell.askedText')}
          {parameters.map((parameter) => (
            <TextInput
              key={parameter.name}
              name={parameter.name}
              // A header is named as the API documents it; a query parameter in words.
              label={parameter.in === 'header' ? parameter.name : humanize(parameter.name)}
              description={parameter.description}
              required
              value={typed[parameter.name] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setTyped((current) => ({ ...current, [parameter.name]: value }));
              }}
            />
          ))}
          <div>
            <Button type="submit">{t('shell.askedSave')}</Button>
          </div>
        </Stack>
      </form>
    </Alert>
  );
}
