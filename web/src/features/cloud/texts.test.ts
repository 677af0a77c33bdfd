import { describeFeatureTexts } from '@/testing/feature-texts';
import { type Connection, defaultPicks, type FoundDevice, type FoundSite, quotaText, stateColor } from './api';
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
    const device = (d: Partial<FoundDevice>): FoundDevice => ({ serial: '', following: false, deviceId: 0, kwp: 10, model: 'M', name: 'D', type: 'inverter', ...d });
    const site = (s: Partial<FoundSite>): FoundSite => ({ id: '', stationId: 0, devices: [], name: 'S', address: '', country: '', currency: '', peakKw: 10, timeZone: 'UTC', ...s });
    const sites: FoundSite[] = [
      site({ id: '1', stationId: 0, devices: [device({ serial: 'A', following: false }), device({ serial: 'B', following: true })] }),
      site({ id: '2', stationId: 7, devices: [device({ serial: 'C', following: true })] }),
      site({ id: '3', stationId: 9, devices: [device({ serial: 'D', deviceId: 4, following: false })] }),
    ];
    expect(defaultPicks(sites)).toEqual([
      { siteId: '1', stationId: 0, serials: ['A'] },
      { siteId: '3', stationId: 9, serials: ['D'] },
    ]);
  });

  it('shows calls of the budget and colours states', () => {
    const c = { quotaUsed: 42, dailyBudget: 300 } as Connection;
    expect(quotaText(c)).toBe('42 / 300');
    expect(stateColor('refused')).toBe('red');
    expect(stateColor('live')).toBe('green');
    expect(stateColor('whatever')).toBe('gray');
  });
});
