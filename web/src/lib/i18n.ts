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

/**
 * The language of a first visit: the first of the browser's languages that is one of the five,
 * else zh-CN (SPEC.md section 9). A language is matched on its own when its region is not one of
 * the five (en-GB is English, ja is Japanese); Chinese in traditional script (zh-Hant, zh-HK,
 * zh-MO) is zh-TW, any other Chinese zh-CN.
 */
export function browserLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const exact = LOCALES.find((locale) => locale.value.toLowerCase() === tag.toLowerCase());
    if (exact) {
      return exact.value;
    }
    const [language = '', ...rest] = tag.toLowerCase().split(/[-_]/);
    if (language === 'zh') {
      return rest.some((part) => ['hant', 'tw', 'hk', 'mo'].includes(part)) ? 'zh-TW' : 'zh-CN';
    }
    const same = LOCALES.find((locale) => locale.value.toLowerCase().startsWith(`${language}-`));
    if (same) {
      return same.value;
    }
  }
  return DEFAULT_LOCALE;
}

/** The language chosen before on this browser, else the browser's own (not stored until chosen). */
function storedLocale(): string {
  const languages =
    typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  try {
    return window.localStorage.getItem(STORAGE_KEYS.locale) || browserLocale(languages);
  } catch {
    return browserLocale(languages);
  }
}

void i18n.use(initReactI18next).init({
  // A copy: i18next extends bundles in place when the screens' texts arrive.
  resources: { 'en-US': { translation: { ...enUS } } },
  lng: storedLocale(),
  fallbackLng: FALLBACK_LOCALE,
  // Keys are flat and dotted ("menu.operations.plan"), as the server menu's meta.locale sends them.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
});

// The texts of the console's screens (monitor, stations, devices, …) are a second set per
// language, fetched with the first screen that needs them: the login page never downloads them.
const screenLoaders: Record<Locale, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('@/locales/screens/zh-CN.json'),
  'en-US': () => import('@/locales/screens/en-US.json'),
  'zh-TW': () => import('@/locales/screens/zh-TW.json'),
  'ko-KR': () => import('@/locales/screens/ko-KR.json'),
  'ja-JP': () => import('@/locales/screens/ja-JP.json'),
};

const coreLoaded = new Set<Locale>(['en-US']);
const screenTextsLoaded = new Set<Locale>();
let screenTextsWanted = false;

async function loadScreenLocale(locale: Locale): Promise<void> {
  if (screenTextsLoaded.has(locale)) {
    return;
  }
  const { default: messages } = await screenLoaders[locale]();
  i18n.addResourceBundle(locale, 'translation', messages, true, true);
  screenTextsLoaded.add(locale);
}

/** Fetches a language's texts once; unknown locales have none and show English. */
export async function loadLocale(locale: string): Promise<void> {
  // Every language has every screen text (a unit test checks it), so English is fetched only for
  // a language the console does not know.
  const screens = screenTextsWanted ? loadScreenLocale(isLocale(locale) ? locale : FALLBACK_LOCALE) : Promise.resolve();
  if (!isLocale(locale) || locale === 'en-US' || coreLoaded.has(locale)) {
    await screens;
    return;
  }
  const { default: messages } = await loaders[locale]();
  i18n.addResourceBundle(locale, 'translation', messages, true, false);
  coreLoaded.add(locale);
  await screens;
}

/**
 * Fetches the screens' texts for the current language; from then on a language switch fetches
 * them too. Every signed-in page waits for this before it renders.
 */
export async function loadScreenTexts(): Promise<void> {
  screenTextsWanted = true;
  await loadLocale(i18n.language || DEFAULT_LOCALE);
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
