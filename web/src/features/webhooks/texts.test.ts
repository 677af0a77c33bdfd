import { describeFeatureTexts } from '@/testing/feature-texts';
import { deliveryColor, EVENTS, isSet } from './api';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { webhookTexts } from './texts';

describeFeatureTexts('webhooks', {
  prefix: 'webhook.',
  texts: webhookTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'webhook.event.alarm.raised', zhCN: '告警产生', jaJP: 'アラーム発生' },
});

describe('webhook helpers', () => {
  it('names every event the server offers in every language', () => {
    for (const bundle of [enUS, zhCN, zhTW, koKR, jaJP] as Record<string, string>[]) {
      for (const e of EVENTS) {
        expect(bundle[`webhook.event.${e}`]).toBeTruthy();
      }
    }
  });

  it('colours delivery states and reads Go zero times as unset', () => {
    expect(deliveryColor('sent')).toBe('green');
    expect(deliveryColor('failed')).toBe('red');
    expect(deliveryColor(undefined)).toBe('gray');
    expect(isSet('0001-01-01T00:00:00Z')).toBe(false);
    expect(isSet('2026-11-29T06:00:00Z')).toBe(true);
    expect(isSet(undefined)).toBe(false);
  });
});
