import { featureTexts } from '@/lib/feature-texts';

/** The vendor-cloud screen's texts (keys cloud.*), loaded for the language in use. */
export const cloudTexts = featureTexts({
  'zh-CN': () => import('./locales/zh-CN.json'),
  'en-US': () => import('./locales/en-US.json'),
  'zh-TW': () => import('./locales/zh-TW.json'),
  'ko-KR': () => import('./locales/ko-KR.json'),
  'ja-JP': () => import('./locales/ja-JP.json'),
});
