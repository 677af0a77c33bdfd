import { act } from '@testing-library/react';
import enUS from '@/locales/en-US.json';
import enUSScreens from '@/locales/screens/en-US.json';
import { browserLocale, changeLocale, currentLocale, i18n, LOCALES, loadLocale } from './i18n';
import { STORAGE_KEYS } from './storage';

describe('i18n', () => {
  afterEach(async () => {
    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
  });

  it('has every key in every locale, translated rather than copied', async () => {
    const english: Record<string, string> = { ...enUS, ...enUSScreens };
    const keys = Object.keys(english).sort();
    for (const { value } of LOCALES) {
      await loadLocale(value);
      const bundle = i18n.getResourceBundle(value, 'translation') as Record<string, string>;
      expect(Object.keys(bundle).sort()).toEqual(keys);
      if (value !== 'en-US') {
        const copied = keys.filter((key) => bundle[key] === english[key] && !/^\d+$/.test(bundle[key]!));
        expect(copied).toEqual([]);
      }
    }
  });

  it('keeps the screens\' texts apart from the login page\'s, with no key in both', () => {
    expect(Object.keys(enUSScreens).filter((key) => key in enUS)).toEqual([]);
  });

  it('names all 68 weather conditions of the weather-code table and the six air-quality levels', () => {
    const weather = Object.keys(enUSScreens).filter((key) => key.startsWith('weather.'));
    expect(weather).toHaveLength(68);
    for (const level of ['excellent', 'good', 'light', 'moderate', 'heavy', 'severe']) {
      expect(enUSScreens).toHaveProperty([`airQuality.${level}`]);
    }
  });

  it('switches, stores, and reports only a real change', async () => {
    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
    let changed = false;
    await act(async () => {
      changed = await changeLocale('ko-KR');
    });
    expect(changed).toBe(true);
    expect(currentLocale()).toBe('ko-KR');
    expect(window.localStorage.getItem(STORAGE_KEYS.locale)).toBe('ko-KR');
    expect(document.documentElement.lang).toBe('ko-KR');
    expect(i18n.t('menu.alarm')).toBe('알람');
    await act(async () => {
      changed = await changeLocale('ko-KR');
    });
    expect(changed).toBe(false);
  });

  it('falls back to English for an unknown locale', async () => {
    await act(async () => {
      await changeLocale('fr-FR');
    });
    expect(i18n.t('menu.alarm')).toBe('Alarm');
  });

  it('defaults to Simplified Chinese', async () => {
    expect(i18n.t('menu.monitor')).toBe('监控中心');
  });

  it.each([
    [['en-US'], 'en-US'],
    [['ja'], 'ja-JP'],
    [['ko-KR', 'en-US'], 'ko-KR'],
    [['en-GB', 'zh-CN'], 'en-US'],
    [['zh-TW'], 'zh-TW'],
    [['zh-HK'], 'zh-TW'],
    [['zh-Hant-TW'], 'zh-TW'],
    [['zh'], 'zh-CN'],
    [['zh-SG'], 'zh-CN'],
    [['fr-FR', 'de'], 'zh-CN'],
    [['fr-FR', 'ja-JP'], 'ja-JP'],
    [[], 'zh-CN'],
  ])('opens a first visit from browser languages %j in %s', (languages, expected) => {
    expect(browserLocale(languages)).toBe(expected);
  });
});
