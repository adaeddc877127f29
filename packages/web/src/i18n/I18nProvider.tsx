import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { catalogueOf, isLoaded, LOCALES, type Locale, loadLocale } from './catalogue';
import type { MessageKey, PluralKey } from './types';

type Vars = Record<string, string | number>;

export interface I18n {
  locale: Locale;
  setLocale(locale: Locale): void;
  /** A message with `{name}` placeholders filled in. */
  t(key: MessageKey, vars?: Vars): string;
  /** A counted message: picks the key's `_one` or `_other` form by the language's plural rules. */
  tn(key: PluralKey, count: number, vars?: Vars): string;
  /** Formatters for the current language. */
  format: Formatters;
}

export interface Formatters {
  number(value: number): string;
  money(value: number, currency?: string): string;
  date(value: string): string;
  datetime(value: string): string;
}

const STORAGE_KEY = 'ninefold.locale';
const I18nContext = createContext<I18n | null>(null);

/** The language: a choice the person made earlier, else the browser's, else English. */
export function initialLocale(): Locale {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    if (saved && (LOCALES as readonly string[]).includes(saved)) return saved as Locale;
  } catch {
    // Storage can be disabled; the browser's language still applies.
  }
  const browser = typeof navigator === 'undefined' ? 'en' : navigator.language.slice(0, 2);
  return (LOCALES as readonly string[]).includes(browser) ? (browser as Locale) : 'en';
}

export function I18nProvider({ children, locale: fixed }: { children: ReactNode; locale?: Locale }) {
  const [locale, setLocaleState] = useState<Locale>(fixed ?? initialLocale);
  // A language whose catalogue is still loading shows in English until it is there (the client loads
  // the person's language at start, beside the model, so this is only a fallback).
  const [ready, setReady] = useState(() => isLoaded(locale));
  useEffect(() => {
    if (ready) return;
    let current = true;
    loadLocale(locale)
      .then(() => current && setReady(true))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [locale, ready]);
  const setLocale = useCallback((next: Locale) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered across reloads, but the page still changes language.
    }
    // Switched once its words are there, so that the page never shows half of each.
    loadLocale(next)
      .then(() => {
        setReady(true);
        setLocaleState(next);
      })
      .catch(() => {});
  }, []);
  const shown = ready ? locale : 'en';
  const value = useMemo(() => createI18n(shown, setLocale), [shown, setLocale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n must be used inside <I18nProvider>.');
  return value;
}

export function createI18n(locale: Locale, setLocale: (locale: Locale) => void = () => {}): I18n {
  const catalogue = catalogueOf(locale);
  const lookup = (key: string): string => {
    const dot = key.indexOf('.');
    const area = catalogue[key.slice(0, dot) as keyof typeof catalogue] as Record<string, string> | undefined;
    return area?.[key.slice(dot + 1)] ?? key;
  };
  const fill = (template: string, vars?: Vars) =>
    vars ? template.replace(/\{(\w+)\}/g, (whole, name: string) => String(vars[name] ?? whole)) : template;
  // Intl objects are costly to build (each loads locale data), and a first screen needs few of them:
  // each is built on its first use.
  const plurals = once(() => new Intl.PluralRules(locale));
  const numbers = once(() => new Intl.NumberFormat(locale));
  const dates = once(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }));
  const datetimes = once(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }));
  const plainMoney = once(() => new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }));
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  return {
    locale,
    setLocale,
    t: (key, vars) => fill(lookup(key), vars),
    tn: (key, count, vars) => {
      const form = plurals().select(count) === 'one' ? 'one' : 'other';
      return fill(lookup(`${key}_${form}`), { count: numbers().format(count), ...vars });
    },
    format: {
      number: (value) => numbers().format(value),
      money: (value, currency) => {
        if (!currency) return plainMoney().format(value);
        let format = moneyFormats.get(currency);
        if (!format) {
          try {
            format = new Intl.NumberFormat(locale, { style: 'currency', currency });
          } catch {
            // A currency code Intl does not know is shown after the amount instead of failing.
            return `${numbers().format(value)} ${currency}`;
          }
          moneyFormats.set(currency, format);
        }
        return format.format(value);
      },
      date: (value) => {
        const parsed = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
        return Number.isNaN(parsed.getTime()) ? value : dates().format(parsed);
      },
      datetime: (value) => {
        const parsed = new Date(value);
        return Number.isNaN(parsed.getTime()) ? value : datetimes().format(parsed);
      },
    },
  };
}

/** A value computed on first use and kept. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}
