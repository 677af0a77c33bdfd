import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '@/lib/storage';

export const LOCATIONS = ['KR', 'CN', 'TW', 'JP', 'US'] as const;
export type Location = (typeof LOCATIONS)[number];
export const DEFAULT_LOCATION: Location = 'CN';

interface LocationState {
  location: Location;
  /** Stores the location. Returns false when it was already chosen. */
  setLocation: (location: Location) => boolean;
}

export const useLocationStore = create<LocationState>()(
  persist(
    (set, get) => ({
      location: DEFAULT_LOCATION,
      setLocation: (location) => {
        if (get().location === location) {
          return false;
        }
        set({ location });
        return true;
      },
    }),
    { name: STORAGE_KEYS.location, storage: createJSONStorage(() => window.localStorage) },
  ),
);
