import { describeFeatureTexts } from '@/testing/feature-texts';
import { guessDeviceTag } from './api';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { lineIngestTexts } from './texts';

describeFeatureTexts('line protocol', {
  prefix: 'lineIngest.',
  texts: lineIngestTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'lineIngest.unknown', zhCN: '未映射序列', jaJP: '未マッピングのシリーズ' },
});

describe('guessDeviceTag', () => {
  it('prefers a tag named like a serial number, else the first tag', () => {
    expect(guessDeviceTag('host,name,type')).toBe('name');
    expect(guessDeviceTag('host,serial_number')).toBe('serial_number');
    expect(guessDeviceTag('site,unit')).toBe('site');
    expect(guessDeviceTag('')).toBe('sn');
  });
});
