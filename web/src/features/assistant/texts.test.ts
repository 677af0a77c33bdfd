import { describeFeatureTexts } from '@/testing/feature-texts';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { assistantTexts } from './texts';

describeFeatureTexts('assistant', {
  prefix: 'assistant.',
  texts: assistantTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'assistant.stop', zhCN: '停止', jaJP: '停止' },
});
