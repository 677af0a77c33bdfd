import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';

const english: Record<string, string> = enUS;
const others: Record<string, Record<string, string>> = { 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP };

describe('MQTT mapping texts', () => {
  it('has every key in every locale, translated, with the same placeholders', () => {
    const keys = Object.keys(english).sort();
    expect(keys.every((key) => key.startsWith('ingestMqtt.'))).toBe(true);
    const placeholders = (text: string) => (text.match(/{{\w+}}/g) ?? []).sort();
    for (const [locale, bundle] of Object.entries(others)) {
      expect(Object.keys(bundle).sort(), locale).toEqual(keys);
      for (const key of keys) {
        expect(bundle[key], `${locale} ${key}`).not.toBe(english[key]);
        expect(placeholders(bundle[key]!), `${locale} ${key}`).toEqual(placeholders(english[key]!));
      }
    }
  });
});
