import '@mantine/core/styles.css';
import './app/app.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { BootFailure } from './app/BootFailure';
import type { SpecPayload } from './data/api-description';
import { createHttpDataProvider } from './data/http-data-provider';

const root = createRoot(document.getElementById('root') as HTMLElement);

/** Fetches the checked model next to the page, then renders the client for it. */
async function boot(): Promise<void> {
  let payload: SpecPayload;
  try {
    const answer = await fetch(new URL('spec.json', document.baseURI), {
      headers: { accept: 'application/json' },
    });
    if (!answer.ok) throw new Error(`the server answered ${answer.status} ${answer.statusText}`.trim());
    payload = (await answer.json()) as SpecPayload;
    if (!payload || typeof payload !== 'object' || !payload.model || !payload.api) {
      throw new Error('it is not a Ninefold model');
    }
  } catch (error) {
    root.render(
      <BootFailure reason={error instanceof Error ? error.message : String(error)} onRetry={boot} />,
    );
    return;
  }
  const data = createHttpDataProvider(payload.api, payload.model);
  root.render(<App spec={{ ...payload, data }} />);
}

void boot();
