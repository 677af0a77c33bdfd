import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from '@/locales/en-US.json';
import { STORAGE_KEYS } from './storage';

/** The five console languages; each label is written in its own language. */
export const LOCALES = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en-US', label: 'English' },
  { value: 'zh-TW', label: '繁體中文' },
  { value: 'ko-KR', label: '한국어' },
  { value: 'ja-JP', label: '日本語' },
] as const;

export type Locale = (typeof LOCALES)[number]['value'];

export const DEFAULT_LOCALE: Locale = 'zh-CN';
/** Text missing in a locale, or a locale the console does not know, falls back to English. */
export const FALLBACK_LOCALE: Locale = 'en-US';

type Messages = Record<string, string>;

// English ships in the main bundle as the fallback; every other language is fetched on demand,
// so a first visit downloads one language, not five.
const loaders: Record<Exclude<Locale, 'en-US'>, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('@/locales/zh-CN.json'),
  'zh-TW': () => import('@/locales/zh-TW.json'),
  'ko-KR': () => import('@/locales/ko-KR.json'),
  'ja-JP': () => import('@/locales/ja-JP.json'),
};

export function isLocale(value: string): value is Locale {
  return LOCALES.some((locale) => locale.value === value);
}

function storedLocale(): string {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.locale) || DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

void i18n.use(initReactI18next).init({
  resources: { 'en-US': { translation: enUS } },
  lng: storedLocale(),
  fallbackLng: FALLBACK_LOCALE,
  // Keys are flat and dotted ("menu.operations.plan"), as the server menu's meta.locale sends them.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Fetches a language's texts once; unknown locales have none and show English. */
export async function loadLocale(locale: string): Promise<void> {
  if (!isLocale(locale) || locale === 'en-US' || i18n.hasResourceBundle(locale, 'translation')) {
    return;
  }
  const { default: messages } = await loaders[locale]();
  i18n.addResourceBundle(locale, 'translation', messages);
}

/** Resolves once the stored language's texts are in; the app renders after that. */
export async function initI18n(): Promise<void> {
  await loadLocale(i18n.language);
  document.documentElement.lang = i18n.language;
}

/** The locale in use; sent as Accept-Language on every request. */
export function currentLocale(): string {
  return i18n.language || DEFAULT_LOCALE;
}

/** Switches to and stores a locale. Resolves false when it was already in use. */
export async function changeLocale(locale: string): Promise<boolean> {
  if (locale === currentLocale()) {
    return false;
  }
  await loadLocale(locale);
  await i18n.changeLanguage(locale);
  window.localStorage.setItem(STORAGE_KEYS.locale, locale);
  document.documentElement.lang = locale;
  return true;
}

export { i18n };
