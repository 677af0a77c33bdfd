import { act } from '@testing-library/react';
import { useTabsStore } from './tabs-store';

const tab = (name: string, fullPath = `/${name}`) => ({
  title: `menu.${name}`,
  name,
  fullPath,
  query: {},
});

describe('tabs store', () => {
  beforeEach(() => act(() => useTabsStore.getState().reset()));

  it('starts with the default page, which cannot be closed', () => {
    expect(useTabsStore.getState().tabs.map((item) => item.name)).toEqual(['monitor']);
    act(() => void useTabsStore.getState().close('monitor'));
    expect(useTabsStore.getState().tabs).toHaveLength(1);
  });

  it('opens each page once and follows its latest address', () => {
    act(() => {
      useTabsStore.getState().open(tab('station'));
      useTabsStore.getState().open(tab('station', '/station?x=1'));
    });
    const { tabs } = useTabsStore.getState();
    expect(tabs.map((item) => item.name)).toEqual(['monitor', 'station']);
    expect(tabs[1]!.fullPath).toBe('/station?x=1');
  });

  it('closing a tab hands back its neighbour', () => {
    act(() => {
      useTabsStore.getState().open(tab('station'));
      useTabsStore.getState().open(tab('device'));
    });
    let next;
    act(() => {
      next = useTabsStore.getState().close('station');
    });
    expect(next).toMatchObject({ name: 'device' });
    act(() => {
      next = useTabsStore.getState().close('device');
    });
    expect(next).toMatchObject({ name: 'monitor' });
  });
});
