import { featureTexts } from '@/lib/feature-texts';

/** The checklist templates screen's texts (keys checklist.*), loaded for the language in use. */
export const checklistTexts = featureTexts({
  'zh-CN': () => import('./locales/zh-CN.json'),
  'en-US': () => import('./locales/en-US.json'),
  'zh-TW': () => import('./locales/zh-TW.json'),
  'ko-KR': () => import('./locales/ko-KR.json'),
  'ja-JP': () => import('./locales/ja-JP.json'),
});
