import { act } from '@testing-library/react';
import enUS from '@/locales/en-US.json';
import { changeLocale, currentLocale, i18n, LOCALES, loadLocale } from './i18n';
import { STORAGE_KEYS } from './storage';

describe('i18n', () => {
  afterEach(async () => {
    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
  });

  it('has every key in every locale, translated rather than copied', async () => {
    const keys = Object.keys(enUS).sort();
    for (const { value } of LOCALES) {
      await loadLocale(value);
      const bundle = i18n.getResourceBundle(value, 'translation') as Record<string, string>;
      expect(Object.keys(bundle).sort()).toEqual(keys);
      if (value !== 'en-US') {
        const copied = keys.filter((key) => bundle[key] === enUS[key as keyof typeof enUS] && !/^\d+$/.test(bundle[key]!));
        expect(copied).toEqual([]);
      }
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
});
