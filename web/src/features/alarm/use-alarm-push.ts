import { useEffect, useRef } from 'react';
import { type PushEvent, usePush } from '@/lib/push';
import { queryClient } from '@/lib/query-client';
import { ALARM_KEY } from './api/alarms';

/** A burst of pushed alarms refreshes the lists once. */
const REFRESH_DELAY_MS = 300;

/**
 * Whether a push event means the alarm figures changed: a new alarm message, another count of
 * unprocessed alarms (someone dealt one), a work order opened or moved (an alarm shows its
 * orders' status), or a connection back after a gap.
 */
export function alarmsChanged(event: PushEvent, lastUnprocessed: number | null): boolean {
  switch (event.type) {
    case 'message':
      return event.message.messageType === 'alarm';
    case 'counts':
      return lastUnprocessed !== null && event.counts.unprocessedAlarm !== lastUnprocessed;
    case 'orders':
      return true;
    case 'hello':
      return event.reconnected;
    default:
      return false;
  }
}

/** Refreshes the alarm queries on the screen when the push says alarms changed. */
export function useAlarmPush(): void {
  const unprocessed = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
      }
    },
    [],
  );
  usePush((event) => {
    const changed = alarmsChanged(event, unprocessed.current);
    if (event.type === 'counts') {
      unprocessed.current = event.counts.unprocessedAlarm;
    } else if (event.type === 'message' && event.counts) {
      unprocessed.current = event.counts.unprocessedAlarm;
    }
    if (changed && !timer.current) {
      timer.current = setTimeout(() => {
        timer.current = null;
        void queryClient.invalidateQueries({ queryKey: [ALARM_KEY] });
      }, REFRESH_DELAY_MS);
    }
  });
}
