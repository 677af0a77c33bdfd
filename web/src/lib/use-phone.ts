import { useSyncExternalStore } from 'react';

/**
 * A phone-sized window: narrower than 768 px. The same width as the `max-width: 767.98px` media
 * queries of the stylesheets, so what the script draws and what the styles do agree.
 */
export const PHONE_QUERY = '(max-width: 767.98px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener?.('change', onChange);
  return () => query.removeEventListener?.('change', onChange);
}

const isPhone = () => window.matchMedia(PHONE_QUERY).matches;

/** Whether the window is phone-sized now; follows it as it is resized or turned. */
export function usePhone(): boolean {
  return useSyncExternalStore(subscribe, isPhone, () => false);
}
