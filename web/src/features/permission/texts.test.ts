import { i18n } from '@/lib/i18n';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { orgTexts } from './texts';

const english: Record<string, string> = enUS;
const others: Record<string, Record<string, string>> = { 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP };

describe('organisation texts', () => {
  it('has every key in every locale, translated rather than copied, under the org. prefix', () => {
    const keys = Object.keys(english).sort();
    expect(keys.every((key) => key.startsWith('org.'))).toBe(true);
    for (const [locale, bundle] of Object.entries(others)) {
      expect(Object.keys(bundle).sort(), locale).toEqual(keys);
      expect(keys.filter((key) => bundle[key] === english[key]), locale).toEqual([]);
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

  it('loads the texts of the language in use and of every language switched to', async () => {
    await orgTexts.ready('zh-CN');
    expect(i18n.t('org.tab.log')).toBe('系统日志');
    await i18n.changeLanguage('ja-JP');
    await orgTexts.ready();
    expect(i18n.t('org.tab.log')).toBe('システムログ');
    await i18n.changeLanguage('zh-CN');
  });
});
