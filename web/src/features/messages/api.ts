import { queryOptions, useMutation } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';
import { fromServer, useMessageStore } from './message-store';

/** The message centre lists at most this many messages (the server's largest page). */
export const MESSAGE_PAGE_SIZE = 200;

export const MESSAGES_KEY = 'messages';

/**
 * GET /v2/message/list: the messages since sign-in, newest first, into the store. A background
 * call: a failure shows in the message centre (with a retry), not as a message on the page.
 */
export const messageListQuery = queryOptions({
  queryKey: [MESSAGES_KEY, 'list'],
  queryFn: async ({ signal }) => {
    const page = await typedApi.get('/v2/message/list', { query: { page: 1, pageSize: MESSAGE_PAGE_SIZE } }, { signal, handleErrors: false });
    useMessageStore.getState().setMessages((page.list ?? []).map(fromServer));
    return { total: page.total };
  },
  staleTime: 0,
});

/** GET /v2/message/counts: unread messages and unprocessed alarm messages since sign-in. */
export const messageCountsQuery = queryOptions({
  queryKey: [MESSAGES_KEY, 'counts'],
  queryFn: async ({ signal }) => {
    const counts = await typedApi.get('/v2/message/counts', undefined, { signal, handleErrors: false });
    useMessageStore.getState().setCounts(counts);
    return counts;
  },
  staleTime: 0,
});

export type ReadTarget = { ids: number[] } | { all: true };

/** POST /v2/message/read: some messages, or all of them. */
export function useMarkRead() {
  return useMutation({
    mutationFn: (target: ReadTarget) => typedApi.post('/v2/message/read', { body: target }),
    onMutate: (target) => {
      const store = useMessageStore.getState();
      if ('all' in target) {
        store.markAllRead();
      } else {
        store.markRead(target.ids);
      }
    },
    onSuccess: (result) => useMessageStore.getState().setCounts(result.counts),
    // The request layer said why; the server's list puts the read marks right again.
    onError: () => void queryClient.invalidateQueries({ queryKey: [MESSAGES_KEY] }),
  });
}

/** The signed-in user's alarm notifications of their local day: sent and held back by the daily limit. */
export type NotifyToday = Schemas['NotifyToday'];

/** GET /v2/warn/notify/settings, read for its `today` only: whether the daily limit held alarms back. */
export const notifyTodayQuery = queryOptions({
  queryKey: ['warn-notify', 'settings'],
  queryFn: ({ signal }) =>
    typedApi.get('/v2/warn/notify/settings', undefined, { signal }),
  select: (view): NotifyToday | undefined => view.today,
  staleTime: 30_000,
});
