import { describeFeatureTexts } from '@/testing/feature-texts';
import { type Connection, defaultPicks, type FoundSite, quotaText, stateColor } from './api';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { cloudTexts } from './texts';

describeFeatureTexts('vendor clouds', {
  prefix: 'cloud.',
  texts: cloudTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'cloud.col.quota', zhCN: '今日调用', jaJP: '本日の呼び出し' },
});

describe('vendor cloud helpers', () => {
  it('picks every device not synced yet, by site, and leaves out sites with none', () => {
    const sites: FoundSite[] = [
      { id: '1', stationId: 0, devices: [{ serial: 'A', following: false }, { serial: 'B', following: true }] },
      { id: '2', stationId: 7, devices: [{ serial: 'C', following: true }] },
      { id: '3', stationId: 9, devices: [{ serial: 'D', deviceId: 4, following: false }] },
    ];
    expect(defaultPicks(sites)).toEqual([
      { siteId: '1', stationId: 0, serials: ['A'] },
      { siteId: '3', stationId: 9, serials: ['D'] },
    ]);
  });

  it('shows calls of the budget and colours states', () => {
    const c: Connection = { quotaUsed: 42, dailyBudget: 300 };
    expect(quotaText(c)).toBe('42 / 300');
    expect(stateColor('refused')).toBe('red');
    expect(stateColor('live')).toBe('green');
    expect(stateColor('whatever')).toBe('gray');
  });
});
