import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../src/lib/storage';
import { groupFiles, groupModules, type ModuleGraph, preloadScript, SESSION_TOKEN_KEY } from './chunks';

/** A module graph from a map of module → its static imports. */
function graph(edges: Record<string, string[]>): ModuleGraph {
  return {
    getModuleIds: () => Object.keys(edges)[Symbol.iterator]() as IterableIterator<string>,
    getModuleInfo: (id) => (id in edges ? { importedIds: edges[id]! } : null),
  };
}

const W = '/w/web';

describe('groupModules', () => {
  const groups = groupModules(
    graph({
      [`${W}/src/main.tsx`]: ['/nm/react/index.js', `${W}/src/app/router.tsx`],
      '/nm/react/index.js': [],
      [`${W}/src/app/router.tsx`]: ['/nm/react/index.js'],
      [`${W}/src/app/routes/login-route.tsx`]: ['/nm/arco/es/Input/index.js'],
      [`${W}/src/app/layout/app-layout.tsx`]: ['/nm/arco/es/Menu/index.js', '/nm/arco/es/Input/index.js', '/nm/react/index.js'],
      [`${W}/src/components/list/list-table.tsx`]: ['/nm/arco/es/Table/index.js', `${W}/src/components/list/list-sort.ts`],
      [`${W}/src/components/list/list-sort.ts`]: [],
      [`${W}/src/components/date-pickers.tsx`]: ['/nm/arco/es/DatePicker/index.js'],
      [`${W}/src/features/orders/prefetch-orders.ts`]: [`${W}/src/features/orders/api.ts`],
      [`${W}/src/features/orders/api.ts`]: [`${W}/src/components/list/list-sort.ts`, '/nm/react/index.js'],
      [`${W}/src/features/orders/orders-page.tsx`]: [`${W}/src/features/orders/api.ts`, '/nm/arco/es/Tabs/index.js'],
      '/nm/arco/es/Input/index.js': [],
      '/nm/arco/es/Menu/index.js': [],
      '/nm/arco/es/Table/index.js': [],
      '/nm/arco/es/Tabs/index.js': [],
      '/nm/arco/es/DatePicker/index.js': [],
    }),
  );

  it('keeps the entry module as the entry and puts what it needs in app', () => {
    expect(groups.get(`${W}/src/main.tsx`)).toBeUndefined();
    expect(groups.get('/nm/react/index.js')).toBe('app');
    expect(groups.get(`${W}/src/app/router.tsx`)).toBe('app');
  });

  it("puts a prefetch module's needs in data, even when the shell needs them too", () => {
    expect(groups.get(`${W}/src/features/orders/prefetch-orders.ts`)).toBe('data');
    expect(groups.get(`${W}/src/features/orders/api.ts`)).toBe('data');
    expect(groups.get(`${W}/src/components/list/list-sort.ts`)).toBe('data');
  });

  it('puts the shell and the list components in core, what sign-in shares with them in common', () => {
    expect(groups.get(`${W}/src/app/layout/app-layout.tsx`)).toBe('core');
    expect(groups.get('/nm/arco/es/Menu/index.js')).toBe('core');
    expect(groups.get('/nm/arco/es/Table/index.js')).toBe('core');
    expect(groups.get('/nm/arco/es/Input/index.js')).toBe('common');
  });

  it("leaves a screen's own code, the sign-in page and the date pickers to Rollup", () => {
    expect(groups.get(`${W}/src/features/orders/orders-page.tsx`)).toBeUndefined();
    expect(groups.get('/nm/arco/es/Tabs/index.js')).toBeUndefined();
    expect(groups.get(`${W}/src/app/routes/login-route.tsx`)).toBeUndefined();
    expect(groups.get(`${W}/src/components/date-pickers.tsx`)).toBeUndefined();
    expect(groups.get('/nm/arco/es/DatePicker/index.js')).toBeUndefined();
  });
});

describe('the shell preload of index.html', () => {
  it('lists the groups in order, each style sheet before its script', () => {
    const chunk = (name: string, fileName: string, css: string[] = []) => ({ type: 'chunk', name, fileName, viteMetadata: { importedCss: new Set(css) } });
    const bundle = {
      a: chunk('core', 'assets/core-1.js', ['assets/core-1.css']),
      b: chunk('data', 'assets/data-1.js'),
      c: chunk('orders-page', 'assets/orders-page-1.js'),
      d: { type: 'asset', fileName: 'assets/core-1.css' },
    };
    expect(groupFiles(bundle, ['data', 'common', 'core'])).toEqual(['assets/data-1.js', 'assets/core-1.css', 'assets/core-1.js']);
  });

  it('runs only for a kept session outside the sign-in page', () => {
    const run = (hash: string, token: string | null) => {
      document.head.querySelectorAll('link').forEach((l) => l.remove());
      localStorage.clear();
      if (token) localStorage.setItem(SESSION_TOKEN_KEY, token);
      window.history.replaceState(null, '', `/${hash}`);
      new Function(preloadScript(['./assets/core-1.css', './assets/core-1.js'], SESSION_TOKEN_KEY))();
      return Array.from(document.head.querySelectorAll('link')).map((l) => `${l.rel} ${l.getAttribute('blocking') ?? '-'} ${l.href}`);
    };
    expect(run('#/operations/workorder', 't')).toEqual([
      `stylesheet render ${location.origin}/assets/core-1.css`,
      `modulepreload - ${location.origin}/assets/core-1.js`,
    ]);
    expect(run('#/login?redirect=monitor', 't')).toEqual([]);
    expect(run('#/monitor', null)).toEqual([]);
  });

  it("reads the console's own session key", () => {
    expect(SESSION_TOKEN_KEY).toBe(STORAGE_KEYS.token);
  });
});
