import { i18n } from '@/lib/i18n';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { analysisTexts } from './texts';

const english: Record<string, string> = enUS;
const others: Record<string, Record<string, string>> = { 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP };
/** Texts that may be the same in another language: a formula of units only, the list separator. */
const neutral = ['analysis.formula.specificYield', 'analysis.listSeparator'];

describe('analysis texts', () => {
  it('has every key in every locale, translated rather than copied, under the analysis. prefix', () => {
    const keys = Object.keys(english).sort();
    expect(keys.every((key) => key.startsWith('analysis.'))).toBe(true);
    for (const [locale, bundle] of Object.entries(others)) {
      expect(Object.keys(bundle).sort(), locale).toEqual(keys);
      expect(keys.filter((key) => bundle[key] === english[key] && !neutral.includes(key)), locale).toEqual([]);
    }
  });

  it('keeps the placeholders of every text', () => {
    const placeholders = (text: string) => (text.match(/{{\w+}}/g) ?? []).sort();
    for (const [locale, bundle] of Object.entries(others)) {
      for (const key of Object.keys(english)) {
        expect(placeholders(bundle[key]!), `${locale} ${key}`).toEqual(placeholders(english[key]!));
      }
    }
  });

  it('loads the texts of the language in use', async () => {
    await analysisTexts.ready('ja-JP');
    await i18n.changeLanguage('ja-JP');
    expect(i18n.t('analysis.tab.reports')).toBe('レポート');
    await i18n.changeLanguage('zh-CN');
  });
});
