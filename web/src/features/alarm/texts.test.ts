import { describeFeatureTexts } from '@/testing/feature-texts';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { alarmTexts } from './texts';

describeFeatureTexts('alarm', {
  prefix: 'alarm.',
  texts: alarmTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'alarm.tab.list', zhCN: '告警列表', jaJP: 'アラーム一覧' },
});
