import type { FeatureTexts } from '@/lib/feature-texts';
import { i18n } from '@/lib/i18n';

type Bundle = Record<string, string>;

export interface FeatureTextsCase {
  /** The feature's key prefix, e.g. "alarm." */
  prefix: string;
  texts: FeatureTexts;
  bundles: { 'en-US': Bundle; 'zh-CN': Bundle; 'zh-TW': Bundle; 'ko-KR': Bundle; 'ja-JP': Bundle };
  /** A key and its Chinese and Japanese texts, to prove the bundles load on a language switch. */
  sample: { key: string; zhCN: string; jaJP: string };
}

/**
 * The checks every feature's texts pass: every key in all five locales, translated rather than
 * copied from English, under the feature's prefix, with the same placeholders, and loaded for
 * the language in use and every language switched to.
 */
export function describeFeatureTexts(name: string, c: FeatureTextsCase): void {
  const english = c.bundles['en-US'];
  const others = Object.entries(c.bundles).filter(([locale]) => locale !== 'en-US');
  describe(`${name} texts`, () => {
    it(`has every key in every locale, translated rather than copied, under the ${c.prefix} prefix`, () => {
      const keys = Object.keys(english).sort();
      expect(keys.every((key) => key.startsWith(c.prefix))).toBe(true);
      for (const [locale, bundle] of others) {
        expect(Object.keys(bundle).sort(), locale).toEqual(keys);
        expect(keys.filter((key) => bundle[key] === english[key]), locale).toEqual([]);
      }
    });

    it('keeps the placeholders of every text', () => {
      const placeholders = (text: string) => (text.match(/{{\w+}}/g) ?? []).sort();
      for (const [locale, bundle] of others) {
        for (const key of Object.keys(english)) {
          expect(placeholders(bundle[key]!), `${locale} ${key}`).toEqual(placeholders(english[key]!));
        }
      }
    });

    it('loads the texts of the language in use and of every language switched to', async () => {
      await c.texts.ready('zh-CN');
      expect(i18n.t(c.sample.key)).toBe(c.sample.zhCN);
      await i18n.changeLanguage('ja-JP');
      await c.texts.ready();
      expect(i18n.t(c.sample.key)).toBe(c.sample.jaJP);
      await i18n.changeLanguage('zh-CN');
    });
  });
}
