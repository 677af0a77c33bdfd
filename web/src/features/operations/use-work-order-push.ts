import { useEffect, useRef } from 'react';
import { usePush } from '@/lib/push';
import { queryClient } from '@/lib/query-client';
import { WORK_ORDER_KEY } from './api/work-orders';

/**
 * A work-order message (someone acted on an order for the reader), an "orders" frame (anyone
 * acted on an order of the organisation) or a reconnection refreshes the screen once.
 */
export function useWorkOrderPush(): void {
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
    const changed =
      (event.type === 'message' && event.message.messageType === 'workorder') ||
      event.type === 'orders' ||
      (event.type === 'hello' && event.reconnected);
    if (changed && !timer.current) {
      timer.current = setTimeout(() => {
        timer.current = null;
        void queryClient.invalidateQueries({ queryKey: [WORK_ORDER_KEY] });
      }, 300);
    }
  });
}
