import href from './mantine-later.css?url';

let loading: Promise<void> | undefined;

/**
 * The stylesheet of the Mantine components no first screen of a list or a dashboard draws
 * (mantine-later.css), added to the page once. It settles when the sheet has loaded, or failed to: a
 * screen then draws with the styles it has rather than not at all.
 */
export function loadLaterStyles(): Promise<void> {
  loading ??= new Promise<void>((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    document.head.append(link);
  });
  return loading;
}

/** A lazy module's loader that also waits for the later stylesheet, so its first frame is styled. */
export function withLaterStyles<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadLaterStyles()]).then(([module]) => module);
}

/**
 * For environments that load no stylesheets and never say so (the unit tests' DOM): waiting for the
 * sheet would hold every screen forever.
 */
export function skipLaterStyles(): void {
  loading = Promise.resolve();
}
