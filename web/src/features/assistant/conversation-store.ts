import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { ask, type AnswerEvent, type Source, type Turn } from './stream';

export type ExchangeState = 'streaming' | 'done' | 'stopped' | 'error';

/** A question and its answer as the panel shows them. */
export interface Exchange {
  id: number;
  question: string;
  answer: string;
  sources: Source[];
  state: ExchangeState;
  model?: string;
  /** Why the answer failed or broke off. */
  error?: { message?: string; status?: number };
}

interface ConversationState {
  open: boolean;
  exchanges: Exchange[];
  setOpen: (open: boolean) => void;
  askQuestion: (question: string) => Promise<void>;
  stop: () => void;
  clear: () => void;
}

/** How many earlier turns travel with a question (the server takes up to 10). */
const HISTORY_TURNS = 6;
let controller: AbortController | null = null;
let nextId = 1;

function historyOf(exchanges: Exchange[]): Turn[] {
  const turns: Turn[] = [];
  for (const e of exchanges.filter((x) => x.state === 'done')) {
    turns.push({ role: 'user', content: e.question }, { role: 'assistant', content: e.answer.slice(0, 4000) });
  }
  return turns.slice(-HISTORY_TURNS);
}

/** The assistant's conversation of this browser session. */
export const useConversation = create<ConversationState>()(
  persist(
    (set, get) => {
      const update = (id: number, change: (e: Exchange) => Partial<Exchange>) =>
        set((s) => ({ exchanges: s.exchanges.map((e) => (e.id === id ? { ...e, ...change(e) } : e)) }));
      return {
        open: false,
        exchanges: [],
        setOpen: (open) => set({ open }),
        stop: () => controller?.abort(),
        clear: () => {
          controller?.abort();
          set({ exchanges: [] });
        },
        askQuestion: async (question) => {
          controller?.abort();
          const mine = new AbortController();
          controller = mine;
          const id = (nextId = Math.max(nextId, ...get().exchanges.map((e) => e.id + 1)));
          nextId += 1;
          const history = historyOf(get().exchanges);
          set((s) => ({ exchanges: [...s.exchanges, { id, question, answer: '', sources: [], state: 'streaming' }] }));
          const onEvent = (event: AnswerEvent) => {
            switch (event.type) {
              case 'sources':
                update(id, () => ({ sources: event.sources }));
                break;
              case 'delta':
                update(id, (e) => ({ answer: e.answer + event.text }));
                break;
              case 'error':
                update(id, () => ({ state: 'error', error: { status: event.status, message: event.message } }));
                break;
              case 'done':
                update(id, () => ({ state: 'done', model: event.model }));
                break;
            }
          };
          try {
            await ask(question, history, mine.signal, onEvent);
            update(id, (e) => (e.state === 'streaming' ? { state: 'done' } : {}));
          } catch (cause) {
            if (mine.signal.aborted) {
              update(id, () => ({ state: 'stopped' }));
            } else {
              const error = cause as { code?: number; msg?: string; message?: string };
              update(id, () => ({ state: 'error', error: { status: error.code, message: error.msg ?? error.message } }));
            }
          } finally {
            if (controller === mine) {
              controller = null;
            }
          }
        },
      };
    },
    {
      name: 'helio.assistant',
      storage: createJSONStorage(() => sessionStorage),
      // an answer cut off by a reload is kept as stopped, not as streaming for ever
      partialize: (s) => ({
        exchanges: s.exchanges.map((e) => (e.state === 'streaming' ? { ...e, state: 'stopped' as const } : e)),
      }),
    },
  ),
);
