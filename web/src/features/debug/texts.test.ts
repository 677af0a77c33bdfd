import { i18n } from '@/lib/i18n';
import { hexWords } from './api/scada';
import { formatValue } from './format';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { debugTexts } from './texts';

const english: Record<string, string> = enUS;
const others: Record<string, Record<string, string>> = { 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP };

describe('debug texts', () => {
  it('has every key in every locale, translated rather than copied, under the debug. prefix', () => {
    const keys = Object.keys(english).sort();
    expect(keys.every((key) => key.startsWith('debug.'))).toBe(true);
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

  it('loads the texts of the language in use', async () => {
    await debugTexts.ready('zh-CN');
    expect(i18n.t('debug.tab.maps')).toBe('寄存器点表');
  });
});

describe('register formatting', () => {
  const reg = { name: 'W', model: 103, group: 0, address: 40084, function: 'holding', dataType: 'int16', target: '', writable: false } as const;

  it('shows raw words in hexadecimal', () => {
    expect(hexWords([0x5375, 0x6e53, 7])).toBe('0x5375 0x6E53 0x0007');
    expect(hexWords(null)).toBe('');
  });

  it('shows the decoded value with its unit, or a dash when not implemented', () => {
    expect(formatValue({ ...reg, raw: [12], value: 12000, unit: 'W' })).toBe('12000 W');
    expect(formatValue({ ...reg, raw: [1], value: 4.2, unit: 'kW' })).toBe('4.200 kW');
    expect(formatValue({ ...reg, raw: [0x8000], value: null, unit: 'W' })).toBe('—');
  });

  it('shows a code with its name, a string\'s text, and why a register has no value', () => {
    expect(formatValue({ ...reg, raw: [0x0200], value: 1, text: 'running', unit: '' })).toBe('1 · running');
    expect(formatValue({ ...reg, raw: [0x5355], value: null, text: 'SU', unit: '' })).toBe('SU');
    expect(formatValue({ ...reg, raw: [0x0201], value: null, error: 'code 513 (0x0201) is not in the table', unit: '' })).toBe(
      'code 513 (0x0201) is not in the table',
    );
  });
});
