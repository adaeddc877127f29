import { Stack } from '@mantine/core';
import { humanize, type Model, type Parameter, type Screen } from '@ninefold/model';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { type ConnectionValues, missingValues } from '../data/connection-values';
import type { DataProvider } from '../data/data-provider';
import { requireCall } from '../data/entity-calls';
import { withLaterStyles } from './later-styles';
import { useScreenParams } from './ScreenParams';
import { PageTitle } from './Shell';
import { useSpec } from './SpecContext';

const NO_VALUES: ConnectionValues = { get: () => undefined, set: () => {} };

// Only an API with values no screen gives (a required header, a server variable) asks for them: the
// form and its inputs load then, not with every page.
const AskedValuesForm = lazy(withLaterStyles(() => import('./AskedValuesForm')));

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
      <Suspense fallback={null}>
        <AskedValuesForm
          key={version}
          parameters={missing}
          onSave={(given) => {
            values.set(given);
            setVersion((count) => count + 1);
          }}
        />
      </Suspense>
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
