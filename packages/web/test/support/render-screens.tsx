import { MantineProvider } from '@mantine/core';
import type { ApiDescription } from '@ninefold/model';
import { type Model, screenAt } from '@ninefold/model';
import { QueryClientProvider } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import { Suspense } from 'react';
import { createQueryClient } from '../../src/app/App';
import { MemoryRouter, useLocation } from '../../src/app/router';
import { ScreenParamsProvider } from '../../src/app/ScreenParams';
import { ScreenRoute } from '../../src/app/ScreenRoute';
import { SpecProvider, useSpec } from '../../src/app/SpecContext';
import { theme } from '../../src/app/theme';
import type { DataProvider } from '../../src/data/data-provider';
import type { LoadedExtension } from '../../src/extension/loaded';
import type { Locale } from '../../src/i18n/catalogue';
import { I18nProvider } from '../../src/i18n/I18nProvider';
import { SessionContext, type SessionValue } from '../../src/session/SessionContext';

function Screens() {
  const { model } = useSpec();
  const { pathname } = useLocation();
  const match = screenAt(model, pathname);
  if (!match) return <p>No screen here</p>;
  return (
    <ScreenParamsProvider value={match.params}>
      <ScreenRoute key={match.screen.name} screen={match.screen} />
    </ScreenParamsProvider>
  );
}

/**
 * The screens alone, for one session, without the shell (whose navigation and session header belong to
 * `App`, which would bring its own session): the route renders `ScreenRoute` for the screen at the
 * address, as the client's catch-all route does.
 */
export function renderScreens(options: {
  session: SessionValue;
  path: string;
  model: Model;
  api: ApiDescription;
  data: DataProvider;
  locale?: Locale;
  /** The team's extension module, as the client would have loaded it. */
  extension?: LoadedExtension;
}): RenderResult {
  const { session, path, model, api, data, extension } = options;
  return render(
    <MantineProvider theme={theme}>
      <I18nProvider locale={options.locale ?? 'en'}>
        <QueryClientProvider client={createQueryClient()}>
          <SpecProvider value={{ model, api, data, ...(extension ? { extension } : {}) }}>
            <SessionContext.Provider value={session}>
              <MemoryRouter entries={[path]}>
                <Suspense fallback={<p>Loading the screen</p>}>
                  <Screens />
                </Suspense>
              </MemoryRouter>
            </SessionContext.Provider>
          </SpecProvider>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>,
  );
}
