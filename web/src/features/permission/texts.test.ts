import { describeFeatureTexts } from '@/testing/feature-texts';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { orgTexts } from './texts';

describeFeatureTexts('organisation', {
  prefix: 'org.',
  texts: orgTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'org.tab.log', zhCN: '系统日志', jaJP: 'システムログ' },
});
