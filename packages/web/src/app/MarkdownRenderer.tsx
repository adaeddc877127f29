import { Typography } from '@mantine/core';
import Markdown from 'react-markdown';

/**
 * Markdown from the specification or the API, rendered as React elements. Raw HTML in the text is
 * shown as text, never parsed (react-markdown's default, stated here so no one "fixes" it), and
 * links open only http(s) and mailto addresses.
 */
export default function MarkdownRenderer({ children }: { children: string }) {
  return (
    <Typography>
      <Markdown skipHtml urlTransform={safeUrl}>
        {children}
      </Markdown>
    </Typography>
  );
}

function safeUrl(url: string): string {
  return /^(https?:|mailto:|\/|#)/i.test(url) ? url : '';
}
