import { type PushEvent, usePush } from '@/lib/push';
import { queryClient } from '@/lib/query-client';
import { MESSAGES_KEY } from './api';
import { fromServer, useMessageStore } from './message-store';

const refetchMessages = () => void queryClient.invalidateQueries({ queryKey: [MESSAGES_KEY] });

/** Applies one push event to the message centre. */
export function applyPushEvent(event: PushEvent): void {
  const store = useMessageStore.getState();
  switch (event.type) {
    case 'hello':
      // Messages may have arrived while the connection was down.
      if (event.reconnected) {
        refetchMessages();
      }
      break;
    case 'message':
      store.add(fromServer(event.message));
      if (event.counts) {
        store.setCounts(event.counts);
      }
      break;
    case 'counts': {
      const previous = store.counts;
      store.setCounts(event.counts);
      // Fewer unread or another unprocessed count without a new message: messages were read in
      // another tab or an alarm was dealt; the list's marks follow.
      if (
        previous &&
        (event.counts.unread < previous.unread || event.counts.unprocessedAlarm !== previous.unprocessedAlarm)
      ) {
        refetchMessages();
      }
      break;
    }
    default:
      break;
  }
}

/** Keeps the message centre live while mounted (the navbar bell). */
export function useMessagePush(): void {
  usePush(applyPushEvent);
}
