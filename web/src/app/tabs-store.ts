import { create } from 'zustand';
import { DEFAULT_ROUTE_NAME, DEFAULT_ROUTE_PATH, routeByName } from './route-config';

/** An open page in the tab bar (SPEC.md section 3). */
export interface Tab {
  /** i18n key of the label. */
  title: string;
  name: string;
  fullPath: string;
  query: Record<string, string>;
  ignoreCache?: boolean;
}

function defaultTab(): Tab {
  return {
    title: routeByName(DEFAULT_ROUTE_NAME)?.locale ?? 'menu.monitor',
    name: DEFAULT_ROUTE_NAME,
    fullPath: DEFAULT_ROUTE_PATH,
    query: {},
  };
}

interface TabsState {
  tabs: Tab[];
  /** Adds the page, or points its tab at the new address when it is already open. */
  open: (tab: Tab) => void;
  /** Closes a tab (the default page's tab stays). Returns the tab to show next, if any. */
  close: (name: string) => Tab | undefined;
  reset: () => void;
}

export const useTabsStore = create<TabsState>((set, get) => ({
  tabs: [defaultTab()],
  open: (tab) =>
    set((state) => {
      const index = state.tabs.findIndex((item) => item.name === tab.name);
      if (index === -1) {
        return { tabs: [...state.tabs, tab] };
      }
      const tabs = [...state.tabs];
      tabs[index] = tab;
      return { tabs };
    }),
  close: (name) => {
    if (name === DEFAULT_ROUTE_NAME) {
      return undefined;
    }
    const { tabs } = get();
    const index = tabs.findIndex((item) => item.name === name);
    if (index === -1) {
      return undefined;
    }
    const next = tabs.filter((item) => item.name !== name);
    set({ tabs: next });
    return next[Math.min(index, next.length - 1)] ?? next[next.length - 1];
  },
  reset: () => set({ tabs: [defaultTab()] }),
}));
