import { featureTexts } from '@/lib/feature-texts';

/** The workplace's texts (keys workplace.*), loaded for the language in use. */
export const workplaceTexts = featureTexts({
  'zh-CN': () => import('./locales/zh-CN.json'),
  'en-US': () => import('./locales/en-US.json'),
  'zh-TW': () => import('./locales/zh-TW.json'),
  'ko-KR': () => import('./locales/ko-KR.json'),
  'ja-JP': () => import('./locales/ja-JP.json'),
});
