import { useEffect } from 'react';
import { useSpec } from './SpecContext';

/** Sets the tab's title to the page's own, followed by the product's name. */
export function useDocumentTitle(title: string | undefined): void {
  const { model } = useSpec();
  useEffect(() => {
    const product = model.title ?? '';
    document.title = title && product ? `${title} · ${product}` : (title ?? product);
  }, [title, model.title]);
}
