import { describeFeatureTexts } from '@/testing/feature-texts';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { opsTexts } from './texts';

describeFeatureTexts('operations', {
  prefix: 'ops.',
  texts: opsTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'ops.wo.list', zhCN: '工单列表', jaJP: '作業指示一覧' },
});
