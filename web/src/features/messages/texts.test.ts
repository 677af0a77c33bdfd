import { describeFeatureTexts } from '@/testing/feature-texts';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { messageTexts } from './texts';

describeFeatureTexts('message centre', {
  prefix: 'messages.',
  texts: messageTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'messages.markAllRead', zhCN: '全部已读', jaJP: 'すべて既読にする' },
});
