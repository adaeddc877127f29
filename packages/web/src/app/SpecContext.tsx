import type { Model, SpecPayload } from '@ninefold/model';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import type { DataProvider } from '../data/data-provider';
import type { LoadedExtension } from '../extension/loaded';
import { useI18n } from '../i18n/I18nProvider';
import { hasSpecWords, loadSpecWords, specWordsTranslator } from './spec-words';

export interface SpecContextValue extends SpecPayload {
  data: DataProvider;
  /** Present when this client is a preview of an OpenAPI document imported in the page. */
  preview?: PreviewInfo;
  /** Replaces the running client with a preview of an imported model; absent where that cannot be done. */
  openPreview?: (preview: { file: string; model: Model }) => void;
  /** The team's extension module (docs/extending.md), read at start; none when absent. */
  extension?: LoadedExtension;
  /**
   * True when the client is a component of a team's own page (`<NinefoldApp>`): its frame then flows in
   * the page's layout instead of taking the whole window.
   */
  embedded?: boolean;
}

export interface PreviewInfo {
  /** The imported document's file name. */
  file: string;
  /** Returns to the client that was running before the preview. */
  end(): void;
}

const SpecContext = createContext<SpecContextValue | null>(null);

/**
 * Gives the screens the model in the person's language: point 1's translations replace the
 * specification's labels, help and messages when it has words in that language.
 */
export function SpecProvider({ value, children }: { value: SpecContextValue; children: ReactNode }) {
  const { locale } = useI18n();
  const wanted = hasSpecWords(value.model, locale);
  const [loaded, setLoaded] = useState(() => specWordsTranslator() !== undefined);
  useEffect(() => {
    if (!wanted || loaded) return;
    let current = true;
    loadSpecWords()
      .then(() => current && setLoaded(true))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [wanted, loaded]);
  const shown = useMemo(() => {
    const translate = specWordsTranslator();
    return wanted && loaded && translate ? { ...value, model: translate(value.model, locale) } : value;
  }, [value, locale, wanted, loaded]);
  return <SpecContext.Provider value={shown}>{children}</SpecContext.Provider>;
}

/** The checked model, the calls and the data interface built from them. */
export function useSpec(): SpecContextValue {
  const value = useContext(SpecContext);
  if (!value) throw new Error('useSpec must be used inside <SpecProvider>.');
  return value;
}
