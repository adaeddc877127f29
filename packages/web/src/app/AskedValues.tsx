import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { humanize, type Model, type Parameter, type Screen } from '@ninefold/spec';
import { type FormEvent, type ReactNode, useState } from 'react';
import { type ConnectionValues, missingValues } from '../data/connection-values';
import type { DataProvider } from '../data/data-provider';
import { requireCall } from '../data/entity-calls';
import { useI18n } from '../i18n/I18nProvider';
import { useScreenParams } from './ScreenParams';
import { PageTitle } from './Shell';
import { useSpec } from './SpecContext';

const NO_VALUES: ConnectionValues = { get: () => undefined, set: () => {} };

/**
 * Shows the screen once the API has every value its calls ask for that no screen can give (an
 * organisation, a required header); until then, a short form that asks for them once. Nothing is
 * dropped in silence: a call is not made without a value it requires.
 */
export function AskedValuesGate({ screen, children }: { screen: Screen; children: ReactNode }) {
  const { model, data } = useSpec();
  const params = useScreenParams();
  const values = data.connection ?? NO_VALUES;
  // Saving re-renders this gate, which asks again what is missing (a small, cheap look).
  const [version, setVersion] = useState(0);
  const missing = screenMissing(model, data, screen, params, values);
  if (missing.length === 0) return children;
  return (
    <Stack gap="md">
      <PageTitle>{screen.title ?? humanize(screen.name)}</PageTitle>
      <AskedValuesForm
        key={version}
        parameters={missing}
        onSave={(given) => {
          values.set(given);
          setVersion((count) => count + 1);
        }}
      />
    </Stack>
  );
}

/** The calls each kind of screen makes for its entity (an edit screen reads the record, then saves it). */
const SCREEN_CALLS: Partial<Record<Screen['kind'], ReadonlyArray<'list' | 'get' | 'create' | 'update'>>> = {
  list: ['list'],
  detail: ['get'],
  create: ['create'],
  edit: ['get', 'update'],
};

/** What the calls of a screen ask for that has no value yet, each parameter once. */
function screenMissing(
  model: Model,
  data: DataProvider,
  screen: Screen,
  params: Readonly<Record<string, string>>,
  values: ConnectionValues,
): Parameter[] {
  if (!('entity' in screen) || screen.entity === undefined) return [];
  const purposes = SCREEN_CALLS[screen.kind] ?? [];
  const calls = data.calls(screen.entity);
  const found = new Map<string, Parameter>();
  for (const purpose of purposes) {
    let call: ReturnType<typeof requireCall> | undefined;
    try {
      call = requireCall(calls, screen.entity, purpose, params);
    } catch {
      continue;
    }
    for (const parameter of missingValues(model, call, values))
      if (!found.has(parameter.name)) found.set(parameter.name, parameter);
  }
  return [...found.values()];
}

function AskedValuesForm({
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
