import { useEffect } from 'react';
import { typedApi } from '@/lib/api-typed';
import { changeLocale, currentLocale, i18n, LOCALES } from '@/lib/i18n';
import { STORAGE_KEYS, useToken } from '@/lib/storage';
import { type Location, LOCATIONS, useLocationStore } from './location-store';
import { DEFAULT_SETTINGS, pickSettings, type Settings, useSettingsStore } from './settings-store';

/**
 * The configuration kept on the server for the user (GET/POST /v2/user/settings). The server
 * keeps it as an opaque JSON object (`settings: unknown` in the API description), so its shape
 * is the console's own.
 */
export interface ServerSettings {
  locale?: string;
  location?: string;
  page?: Partial<Settings>;
}

const SAVE_DELAY_MS = 800;

/**
 * Whether this browser had no configuration of its own when the console started (no language
 * and no page settings stored). Only such a browser takes the server's copy: a browser where
 * the user has made choices keeps them, and its later changes are saved for the next new one.
 */
const FRESH_BROWSER = (() => {
  try {
    return !window.localStorage.getItem(STORAGE_KEYS.locale) && !window.localStorage.getItem(STORAGE_KEYS.settings);
  } catch {
    return true;
  }
})();

/** What the console keeps for the user now. */
export function currentSettings(): ServerSettings {
  return { locale: currentLocale(), location: useLocationStore.getState().location, page: pickSettings(useSettingsStore.getState()) };
}

/** The server's copy when it is a JSON object; anything else is not a configuration. */
function asServerSettings(stored: unknown): ServerSettings | null {
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as ServerSettings) : null;
}

/** Applies a stored configuration, keeping only what the console knows. */
export async function applySettings(stored: ServerSettings): Promise<void> {
  if (stored.page && typeof stored.page === 'object') {
    const patch: Partial<Settings> = {};
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
      const value = stored.page[key];
      if (value !== undefined && typeof value === typeof DEFAULT_SETTINGS[key] && key !== 'device') {
        (patch as Record<string, unknown>)[key] = value;
      }
    }
    useSettingsStore.getState().update(patch);
  }
  if (stored.location && (LOCATIONS as readonly string[]).includes(stored.location)) {
    useLocationStore.getState().setLocation(stored.location as Location);
  }
  if (stored.locale && LOCALES.some((l) => l.value === stored.locale)) {
    await changeLocale(stored.locale);
  }
}

/**
 * Keeps the configuration (locale, location, theme and the page settings) on the server, so it
 * follows the user to a new browser: read once after sign-in and applied when this browser has
 * no configuration of its own, then every change is saved (debounced). Before the server's copy
 * is in, nothing is saved over it.
 */
export function useServerSettings(): void {
  const token = useToken();
  useEffect(() => {
    if (!token) {
      return;
    }
    let loaded = false;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      if (!loaded || stopped) {
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(() => {
        void typedApi
          .post('/v2/user/settings', { body: { settings: currentSettings() } }, { handleErrors: false })
          .catch(() => undefined);
      }, SAVE_DELAY_MS);
    };
    void typedApi
      .get('/v2/user/settings', undefined, { handleErrors: false })
      .then(async ({ settings: stored }) => {
        const settings = asServerSettings(stored);
        if (!stopped && FRESH_BROWSER && settings && Object.keys(settings).length > 0) {
          await applySettings(settings);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        loaded = true;
      });
    const unsubscribe = [
      useSettingsStore.subscribe((state, before) => {
        if (JSON.stringify(pickSettings(state)) !== JSON.stringify(pickSettings(before))) {
          save();
        }
      }),
      useLocationStore.subscribe(save),
    ];
    const onLanguage = () => save();
    i18n.on('languageChanged', onLanguage);
    return () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe.forEach((u) => u());
      i18n.off('languageChanged', onLanguage);
    };
  }, [token]);
}
