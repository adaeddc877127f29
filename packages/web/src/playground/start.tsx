import { MantineProvider } from '@mantine/core';
import { createRoot } from 'react-dom/client';
import { BootFailure } from '../app/BootFailure';
import { THEME } from '../app/theme';

const root = createRoot(document.getElementById('root') as HTMLElement);

/**
 * Renders the playground with its first text (see `playgroundStart`), or says why it cannot. The page's
 * code comes after this small start, so that the frame is drawn at once.
 */
export async function boot(): Promise<void> {
  try {
    const [{ PlaygroundPage, playgroundStart }] = await Promise.all([import('./PlaygroundPage')]);
    const start = await playgroundStart(window.location.hash);
    root.render(
      <MantineProvider {...THEME}>
        <PlaygroundPage start={start} />
      </MantineProvider>,
    );
  } catch (error) {
    root.render(
      <BootFailure reason={error instanceof Error ? error.message : String(error)} onRetry={boot} />,
    );
  }
}
