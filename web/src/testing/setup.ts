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
// after its popup closes, a toast closes after its duration, a transition ends after its
// timeout). Let those run while the page still exists, then cancel any still pending, so none
// fires once the file's page is torn down (it would fail on a missing window).
const pendingTimers = new Set<ReturnType<typeof setTimeout>>();
const nodeSetTimeout = globalThis.setTimeout;
const nodeClearTimeout = globalThis.clearTimeout;
globalThis.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const id = nodeSetTimeout(() => {
    pendingTimers.delete(id);
    handler(...args);
  }, ms);
  pendingTimers.add(id);
  return id;
}) as typeof setTimeout;
globalThis.clearTimeout = ((id?: ReturnType<typeof setTimeout>) => {
  if (id !== undefined) pendingTimers.delete(id);
  nodeClearTimeout(id);
}) as typeof clearTimeout;

afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 250));
  for (const id of pendingTimers) nodeClearTimeout(id);
  pendingTimers.clear();
});
