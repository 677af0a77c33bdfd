import { act } from '@testing-library/react';
import { STORAGE_KEYS } from '@/lib/storage';
import { DEFAULT_SETTINGS, pickSettings, type ToggleKey, useSettingsStore } from './settings-store';

function stored(): Record<string, unknown> {
  const raw = window.localStorage.getItem(STORAGE_KEYS.settings);
  return raw ? (JSON.parse(raw) as { state: Record<string, unknown> }).state : {};
}

describe('settings store', () => {
  beforeEach(() => {
    act(() => {
      useSettingsStore.getState().reset();
      useSettingsStore.getState().setDrawerOpen(false);
    });
    window.localStorage.clear();
  });

  it('starts from the SPEC.md section 9 defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({
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
    });
    expect(pickSettings(useSettingsStore.getState())).toEqual(DEFAULT_SETTINGS);
    expect(useSettingsStore.getState().drawerOpen).toBe(false);
  });

  const toggles: ToggleKey[] = [
    'colorWeak',
    'navbar',
    'menu',
    'topMenu',
    'hideMenu',
    'menuCollapse',
    'footer',
    'tabBar',
    'menuFromServer',
  ];

  it.each(toggles)('toggles %s on and off and persists it', (key) => {
    const initial = useSettingsStore.getState()[key];
    act(() => useSettingsStore.getState().toggle(key));
    expect(useSettingsStore.getState()[key]).toBe(!initial);
    expect(stored()[key]).toBe(!initial);
    act(() => useSettingsStore.getState().toggle(key));
    expect(useSettingsStore.getState()[key]).toBe(initial);
    expect(stored()[key]).toBe(initial);
  });

  it('expands a collapsed menu whenever the top menu bar is switched', () => {
    act(() => useSettingsStore.getState().update({ menuCollapse: true }));
    act(() => useSettingsStore.getState().toggle('topMenu'));
    expect(useSettingsStore.getState().menuCollapse).toBe(false);
    act(() => useSettingsStore.getState().update({ menuCollapse: true }));
    act(() => useSettingsStore.getState().toggle('topMenu'));
    expect(useSettingsStore.getState().menuCollapse).toBe(false);
  });

  it('persists theme, theme colour and menu width, clamping the width', () => {
    act(() =>
      useSettingsStore.getState().update({ theme: 'dark', themeColor: '#00B42A', menuWidth: 260 }),
    );
    expect(stored()).toMatchObject({ theme: 'dark', themeColor: '#00B42A', menuWidth: 260 });
    act(() => useSettingsStore.getState().update({ menuWidth: 5 }));
    expect(useSettingsStore.getState().menuWidth).toBe(160);
    act(() => useSettingsStore.getState().update({ menuWidth: 10_000 }));
    expect(useSettingsStore.getState().menuWidth).toBe(400);
  });

  it('keeps the drawer state out of storage', () => {
    act(() => useSettingsStore.getState().setDrawerOpen(true));
    expect(useSettingsStore.getState().drawerOpen).toBe(true);
    expect(stored()).not.toHaveProperty('drawerOpen');
    expect(stored()).not.toHaveProperty('update');
  });

  it('restores stored settings on reload', async () => {
    window.localStorage.setItem(
      STORAGE_KEYS.settings,
      JSON.stringify({ state: { ...DEFAULT_SETTINGS, footer: true, tabBar: true }, version: 1 }),
    );
    await act(async () => {
      await useSettingsStore.persist.rehydrate();
    });
    expect(useSettingsStore.getState().footer).toBe(true);
    expect(useSettingsStore.getState().tabBar).toBe(true);
    expect(useSettingsStore.getState().navbar).toBe(true);
  });
});
