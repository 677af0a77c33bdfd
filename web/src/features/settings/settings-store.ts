import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '@/lib/storage';

/** Page settings (SPEC.md section 3), kept in this browser. */
export interface Settings {
  theme: 'light' | 'dark';
  colorWeak: boolean;
  navbar: boolean;
  menu: boolean;
  /** On: the navbar spans the page with the menu beneath it. Off: the menu runs full height. */
  topMenu: boolean;
  hideMenu: boolean;
  menuCollapse: boolean;
  footer: boolean;
  themeColor: string;
  menuWidth: number;
  device: 'desktop' | 'mobile';
  tabBar: boolean;
  menuFromServer: boolean;
}

/** Defaults from SPEC.md section 9. */
export const DEFAULT_SETTINGS: Settings = {
  theme: 'light',
  colorWeak: false,
  navbar: true,
  menu: true,
  topMenu: true,
  hideMenu: false,
  menuCollapse: false,
  footer: false,
  themeColor: '#165DFF',
  menuWidth: 220,
  device: 'desktop',
  tabBar: false,
  menuFromServer: false,
};

export const MENU_WIDTH_MIN = 160;
export const MENU_WIDTH_MAX = 400;

export type ToggleKey = {
  [K in keyof Settings]: Settings[K] extends boolean ? K : never;
}[keyof Settings];

interface SettingsState extends Settings {
  /** The settings drawer is open (SPEC.md's globalSettings); not kept across reloads. */
  drawerOpen: boolean;
  update: (patch: Partial<Settings>) => void;
  toggle: (key: ToggleKey) => void;
  setDrawerOpen: (open: boolean) => void;
  reset: () => void;
}

function normalise(patch: Partial<Settings>): Partial<Settings> {
  const next = { ...patch };
  if (next.menuWidth !== undefined) {
    const width = Math.round(Number(next.menuWidth));
    next.menuWidth = Number.isFinite(width)
      ? Math.min(MENU_WIDTH_MAX, Math.max(MENU_WIDTH_MIN, width))
      : DEFAULT_SETTINGS.menuWidth;
  }
  // Switching the top menu bar either way shows the menu expanded (SPEC.md section 4).
  if (next.topMenu !== undefined) {
    next.menuCollapse = false;
  }
  return next;
}

export const useSettingsStore = create<SettingsState>()(
  persist(
    (set, get) => ({
      ...DEFAULT_SETTINGS,
      drawerOpen: false,
      update: (patch) => set(normalise(patch)),
      toggle: (key) => set(normalise({ [key]: !get()[key] })),
      setDrawerOpen: (open) => set({ drawerOpen: open }),
      reset: () => set({ ...DEFAULT_SETTINGS }),
    }),
    {
      name: STORAGE_KEYS.settings,
      version: 1,
      storage: createJSONStorage(() => window.localStorage),
      partialize: (state) => pickSettings(state),
    },
  ),
);

/** Only the settings themselves, as persisted and as "copy settings" hands them out. */
export function pickSettings(state: Settings): Settings {
  const settings = {} as Record<keyof Settings, unknown>;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    settings[key] = state[key];
  }
  return settings as unknown as Settings;
}
