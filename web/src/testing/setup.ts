import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { i18n, LOCALES, loadLocale, loadScreenTexts } from '@/lib/i18n';

// Pages load lazily; on a busy machine the first import of a page's modules takes seconds.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks these browser APIs; Arco components call them.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

beforeAll(async () => {
  await loadScreenTexts();
  await Promise.all(LOCALES.map((locale) => loadLocale(locale.value)));
  await i18n.changeLanguage('zh-CN');
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// Some Arco components finish closing on a timer (the date picker resets its panel 100 ms
// after its popup closes); let those run while the page still exists, before the test
// environment is torn down, rather than in a file that has ended.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 250));
});
