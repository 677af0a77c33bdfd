import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { MessageCounts, PushMessage } from '@/lib/push';
import { STORAGE_KEYS } from '@/lib/storage';

export type MessageKind = 'alarm' | 'workOrder' | 'system';

/** A message received since sign-in, as the message centre shows it. */
export interface ConsoleMessage {
  id: number;
  kind: MessageKind;
  title: string;
  subTitle: string;
  content: string;
  time: string;
  isRead: boolean;
  /** 1 low, 2 normal, 3 urgent, 4 very urgent */
  priority: number;
  /** pending, processed, … (docs/alarms.md, Messages) */
  processStatus: string;
  /** The alarm an alarm message is about (0 otherwise). */
  alarmId: number;
  /** The work order or other object the message is about (0 otherwise). */
  refId: number;
  /** When what it is about happened (an alarm's occurrence), and the station's zone it is shown in. */
  eventTime?: string;
  timezone?: string;
}

const KIND_OF: Record<string, MessageKind> = { alarm: 'alarm', workorder: 'workOrder', system: 'system' };

/** The server's message (list call and push frames) as the store keeps it. */
export function fromServer(message: PushMessage): ConsoleMessage {
  return {
    id: message.id,
    kind: KIND_OF[message.messageType] ?? 'system',
    title: message.title ?? '',
    subTitle: message.subTitle ?? '',
    content: message.content ?? '',
    time: message.time,
    isRead: message.status === 1,
    priority: message.priority ?? 0,
    processStatus: message.processStatus ?? '',
    alarmId: message.alarmId ?? 0,
    refId: message.refId ?? 0,
    eventTime: message.eventTime,
    timezone: message.timezone || undefined,
  };
}

/** Whether an alarm message's alarm still waits for someone to deal with it. */
export function isUnprocessedAlarm(message: ConsoleMessage): boolean {
  return message.kind === 'alarm' && message.processStatus !== 'processed';
}

const newestFirst = (a: ConsoleMessage, b: ConsoleMessage) =>
  b.time === a.time ? b.id - a.id : Date.parse(b.time) - Date.parse(a.time);

interface MessageState {
  messages: ConsoleMessage[];
  /** The server's counters (GET /v2/message/counts and the push); null until first known. */
  counts: MessageCounts | null;
  /**
   * Takes the server's list. Messages pushed after the list was read (newer than all of it) are
   * kept; a message read here meanwhile stays read.
   */
  setMessages: (list: ConsoleMessage[]) => void;
  add: (message: ConsoleMessage) => void;
  markRead: (ids: readonly number[]) => void;
  markAllRead: () => void;
  setCounts: (counts: MessageCounts) => void;
  clear: () => void;
}

/** Messages since sign-in and their counters; stored so a reload keeps them, cleared with the session. */
export const useMessageStore = create<MessageState>()(
  persist(
    (set) => ({
      messages: [],
      counts: null,
      setMessages: (list) =>
        set((state) => {
          const newest = list.reduce((max, item) => Math.max(max, item.id), 0);
          const readHere = new Set(state.messages.filter((item) => item.isRead).map((item) => item.id));
          const later = state.messages.filter((item) => item.id > newest);
          const merged = [...later, ...list.map((item) => (readHere.has(item.id) ? { ...item, isRead: true } : item))];
          return { messages: merged.sort(newestFirst) };
        }),
      add: (message) =>
        set((state) => ({
          messages: [message, ...state.messages.filter((item) => item.id !== message.id)].sort(newestFirst),
        })),
      markRead: (ids) =>
        set((state) => {
          const wanted = new Set(ids);
          return { messages: state.messages.map((item) => (wanted.has(item.id) ? { ...item, isRead: true } : item)) };
        }),
      markAllRead: () => set((state) => ({ messages: state.messages.map((item) => ({ ...item, isRead: true })) })),
      setCounts: (counts) => set({ counts }),
      clear: () => set({ messages: [], counts: null }),
    }),
    {
      name: STORAGE_KEYS.alarmList,
      version: 1,
      storage: createJSONStorage(() => window.localStorage),
      partialize: (state) => ({ messages: state.messages, counts: state.counts }),
      // Lists stored by an older console have another shape; the server sends them again.
      migrate: () => ({ messages: [], counts: null }),
    },
  ),
);

/** Unread messages: the server's counter, or the messages at hand before it is known. */
export function selectUnreadCount(state: Pick<MessageState, 'messages' | 'counts'>): number {
  return state.counts?.unread ?? state.messages.filter((item) => !item.isRead).length;
}

/** Alarm messages whose alarm is not processed yet. */
export function selectUnprocessedAlarmCount(state: Pick<MessageState, 'messages' | 'counts'>): number {
  return state.counts?.unprocessedAlarm ?? state.messages.filter(isUnprocessedAlarm).length;
}
