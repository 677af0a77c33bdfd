import { describeFeatureTexts } from '@/testing/feature-texts';
import { IMPORT_FIELDS, REJECT_REASONS } from './api';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { historyImportTexts } from './texts';

describeFeatureTexts('history import', {
  prefix: 'historyImport.',
  texts: historyImportTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'historyImport.startDryRun', zhCN: '试运行', jaJP: 'テスト実行' },
});

describe('history import texts', () => {
  it('names every reject reason the report can give', () => {
    for (const reason of REJECT_REASONS) {
      expect(enUS).toHaveProperty([`historyImport.reason.${reason}`]);
    }
  });

  it('labels every importer field with a shared sample field', () => {
    expect(Object.keys(IMPORT_FIELDS)).toEqual([
      'power', 'energy', 'energy2', 'dcVoltage', 'dcCurrent', 'acVoltage', 'frequency', 'temperature', 'soc', 'irradiance', 'status',
    ]);
  });
});
