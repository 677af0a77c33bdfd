import { featureTexts } from '@/lib/feature-texts';

/** The tools screen's texts (keys tools.*), loaded for the language in use. */
export const toolsTexts = featureTexts({
  'zh-CN': () => import('./locales/zh-CN.json'),
  'en-US': () => import('./locales/en-US.json'),
  'zh-TW': () => import('./locales/zh-TW.json'),
  'ko-KR': () => import('./locales/ko-KR.json'),
  'ja-JP': () => import('./locales/ja-JP.json'),
});
