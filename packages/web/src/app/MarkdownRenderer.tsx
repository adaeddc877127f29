import { Typography } from '@mantine/core';
import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { linkTarget, visibleControls } from './link-policy';

/**
 * Markdown from the specification or the API, rendered as React elements. Raw HTML in the text is
 * shown as text, never parsed (react-markdown's default, stated here so no one "fixes" it). Links and
 * images may only lead to this site (`linkTarget`): anything else, a protocol-relative `//host` included,
 * is shown as its text. Bidirectional controls in the text are shown, not obeyed.
 */
export default function MarkdownRenderer({ children }: { children: string }) {
  return (
    <Typography>
      <Markdown skipHtml urlTransform={sameSiteUrl} components={COMPONENTS} remarkPlugins={[showControls]}>
        {children}
      </Markdown>
    </Typography>
  );
}

function sameSiteUrl(url: string): string {
  return linkTarget(url)?.kind === 'same-site' ? url : '';
}

/** A link or image whose address was refused is its text, not a link to the page itself. */
const COMPONENTS: Components = {
  a: ({ href, children }) => (href ? <a href={href}>{children}</a> : <span>{children as ReactNode}</span>),
  img: ({ src, alt }) =>
    typeof src === 'string' && src !== '' ? <img src={src} alt={alt ?? ''} /> : <span>{alt}</span>,
};

interface TextNode {
  type: string;
  value?: string;
  children?: TextNode[];
}

/** A remark step: every text and inline code value with its bidirectional controls made visible. */
function showControls() {
  return (tree: TextNode) => {
    const stack: TextNode[] = [tree];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if ((node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') && node.value) {
        node.value = visibleControls(node.value);
      }
      if (node.children) stack.push(...node.children);
    }
  };
}
