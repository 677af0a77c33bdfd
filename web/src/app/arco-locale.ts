import type { Locale as ArcoLocale } from '@arco-design/web-react/es/locale/interface';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Loader = () => Promise<ArcoLocale>;

const english = async () => (await import('@arco-design/web-react/es/locale/en-US')).default;

/** Some Arco locales lack the newest components' texts; English fills those gaps. */
async function withEnglish(load: () => Promise<{ default: unknown }>): Promise<ArcoLocale> {
  const [base, own] = await Promise.all([english(), load()]);
  return { ...base, ...(own.default as Partial<ArcoLocale>) };
}

// zh-CN is Arco's built-in default and is bundled anyway; the others load with their language.
const loaders: Record<string, Loader> = {
  'en-US': english,
  'zh-TW': () => withEnglish(() => import('@arco-design/web-react/es/locale/zh-TW')),
  'ko-KR': () => withEnglish(() => import('@arco-design/web-react/es/locale/ko-KR')),
  'ja-JP': () => withEnglish(() => import('@arco-design/web-react/es/locale/ja-JP')),
};

const loaded: Record<string, ArcoLocale> = { 'zh-CN': zhCN };

/** Fetches Arco's own texts (date pickers, empty states, pagination) for a language once. */
export async function loadArcoLocale(language: string): Promise<ArcoLocale> {
  const cached = loaded[language];
  if (cached) {
    return cached;
  }
  const loader = loaders[language] ?? english;
  const locale = await loader();
  loaded[language] = locale;
  return locale;
}

/** Arco's texts for the current language, following language changes. */
export function useArcoLocale(): ArcoLocale {
  const { i18n } = useTranslation();
  const [locale, setLocale] = useState<ArcoLocale>(() => loaded[i18n.language] ?? zhCN);
  useEffect(() => {
    let current = true;
    void loadArcoLocale(i18n.language).then((next) => {
      if (current) {
        setLocale(next);
      }
    });
    return () => {
      current = false;
    };
  }, [i18n.language]);
  return locale;
}
