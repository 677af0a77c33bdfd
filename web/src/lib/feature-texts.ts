import { useSyncExternalStore } from 'react';
import { FALLBACK_LOCALE, i18n, isLocale, type Locale } from './i18n';

type Messages = Record<string, string>;
export type TextLoaders = Record<Locale, () => Promise<{ default: Messages }>>;

export interface FeatureTexts {
  /** Resolves once the texts of the locale (default: the current one) are in. */
  ready: (locale?: string) => Promise<void>;
  /** Whether the current language's texts are in; re-renders when they arrive. */
  useReady: () => boolean;
}

/**
 * A feature's own texts, kept beside its code and added to i18next's bundle for the language in
 * use (and again on every language switch), so a screen's texts travel with its chunk rather
 * than with the shared locale files. Keys carry the feature's prefix.
 */
export function featureTexts(loaders: TextLoaders): FeatureTexts {
  const loaded = new Set<Locale>();
  const pending = new Map<Locale, Promise<void>>();
  const subscribers = new Set<() => void>();
  const resolve = (locale: string): Locale => (isLocale(locale) ? locale : FALLBACK_LOCALE);

  const load = (wanted: string): Promise<void> => {
    const locale = resolve(wanted);
    if (loaded.has(locale)) {
      return Promise.resolve();
    }
    let promise = pending.get(locale);
    if (!promise) {
      promise = loaders[locale]().then(({ default: messages }) => {
        i18n.addResourceBundle(locale, 'translation', messages, true, false);
        loaded.add(locale);
        pending.delete(locale);
        subscribers.forEach((notify) => notify());
      });
      promise.catch(() => pending.delete(locale));
      pending.set(locale, promise);
    }
    return promise;
  };

  i18n.on('languageChanged', (language: string) => {
    void load(language).catch(() => undefined);
  });
  void load(i18n.language).catch(() => undefined);

  const subscribe = (notify: () => void) => {
    subscribers.add(notify);
    return () => subscribers.delete(notify);
  };
  const snapshot = () => loaded.has(resolve(i18n.language));

  return {
    ready: (locale) => load(locale ?? i18n.language),
    useReady: () => useSyncExternalStore(subscribe, snapshot),
  };
}
