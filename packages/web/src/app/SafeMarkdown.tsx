import { Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { withLaterStyles } from './later-styles';

// The Markdown parser is a tenth of the client's code; it loads when the first Markdown text is shown.
const MarkdownRenderer = lazy(withLaterStyles(() => import('./MarkdownRenderer')));

/**
 * Markdown from the specification or the API, rendered as React elements and never as raw HTML. Until
 * the renderer has loaded, the text is shown as it is.
 */
export function SafeMarkdown({ children }: { children: string }) {
  return (
    <Suspense fallback={<Text style={{ whiteSpace: 'pre-wrap' }}>{children}</Text>}>
      <MarkdownRenderer>{children}</MarkdownRenderer>
    </Suspense>
  );
}
