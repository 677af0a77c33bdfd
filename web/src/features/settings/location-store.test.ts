import { act } from '@testing-library/react';
import { STORAGE_KEYS } from '@/lib/storage';
import { DEFAULT_LOCATION, useLocationStore } from './location-store';

describe('location store', () => {
  beforeEach(() => act(() => void useLocationStore.setState({ location: DEFAULT_LOCATION })));

  it('defaults to CN', () => {
    expect(DEFAULT_LOCATION).toBe('CN');
    expect(useLocationStore.getState().location).toBe('CN');
  });

  it('stores a new location and reports whether it changed', () => {
    let changed = false;
    act(() => {
      changed = useLocationStore.getState().setLocation('JP');
    });
    expect(changed).toBe(true);
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.location)!).state.location).toBe('JP');
    act(() => {
      changed = useLocationStore.getState().setLocation('JP');
    });
    expect(changed).toBe(false);
  });
});
