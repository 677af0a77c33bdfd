import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '@/lib/storage';

export type MessageKind = 'alarm' | 'workOrder' | 'system';

/** A message received since sign-in. Filled by the live message push once it is connected. */
export interface ConsoleMessage {
  id: string;
  kind: MessageKind;
  title: string;
  content: string;
  time: string;
  isRead: boolean;
  /** Alarms only: whether someone has dealt with it yet. */
  processed?: boolean;
}

interface MessageState {
  messages: ConsoleMessage[];
  add: (message: ConsoleMessage) => void;
  markRead: (id: string) => void;
  clear: () => void;
}

/** Messages since sign-in; stored so a reload keeps them, cleared with the session. */
export const useMessageStore = create<MessageState>()(
  persist(
    (set) => ({
      messages: [],
      add: (message) =>
        set((state) => ({
          messages: [message, ...state.messages.filter((item) => item.id !== message.id)],
        })),
      markRead: (id) =>
        set((state) => ({
          messages: state.messages.map((item) => (item.id === id ? { ...item, isRead: true } : item)),
        })),
      clear: () => set({ messages: [] }),
    }),
    { name: STORAGE_KEYS.alarmList, storage: createJSONStorage(() => window.localStorage) },
  ),
);

export function selectUnreadCount(state: { messages: ConsoleMessage[] }): number {
  return state.messages.filter((item) => !item.isRead).length;
}

export function selectUnprocessedAlarmCount(state: { messages: ConsoleMessage[] }): number {
  return state.messages.filter((item) => item.kind === 'alarm' && !item.processed).length;
}
