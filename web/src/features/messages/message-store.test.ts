import { act } from '@testing-library/react';
import type { PushMessage } from '@/lib/push';
import {
  type ConsoleMessage,
  fromServer,
  selectUnprocessedAlarmCount,
  selectUnreadCount,
  useMessageStore,
} from './message-store';

const server = (id: number, over: Partial<PushMessage> = {}): PushMessage => ({
  id,
  type: 'notice',
  title: 'Inverter fault',
  subTitle: 'Station A',
  avatar: '',
  content: 'INV-01',
  time: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
  messageType: 'alarm',
  status: 0,
  priority: 3,
  updateTime: '',
  timeoutStatus: 0,
  processStatus: 'pending',
  alarmId: 100 + id,
  refId: 0,
  timezone: 'Asia/Shanghai',
  ...over,
});

const message = (id: number, over: Partial<PushMessage> = {}): ConsoleMessage => fromServer(server(id, over));

describe('message store', () => {
  beforeEach(() => act(() => useMessageStore.getState().clear()));

  it('starts empty: nothing has arrived since sign-in', () => {
    expect(useMessageStore.getState().messages).toEqual([]);
    expect(selectUnreadCount(useMessageStore.getState())).toBe(0);
  });

  it('reads the server\'s messages: kinds, read state, alarm and process status', () => {
    expect(message(1)).toMatchObject({ id: 1, kind: 'alarm', isRead: false, alarmId: 101, processStatus: 'pending' });
    expect(message(2, { messageType: 'workorder', status: 1 })).toMatchObject({ kind: 'workOrder', isRead: true });
    expect(message(3, { messageType: 'system' }).kind).toBe('system');
  });

  it('counts from the messages until the server\'s counters are known, then follows those', () => {
    act(() => {
      useMessageStore.getState().add(message(1));
      useMessageStore.getState().add(message(2, { status: 1, processStatus: 'processed' }));
      useMessageStore.getState().add(message(3, { messageType: 'system' }));
    });
    expect(selectUnreadCount(useMessageStore.getState())).toBe(2);
    expect(selectUnprocessedAlarmCount(useMessageStore.getState())).toBe(1);
    act(() => useMessageStore.getState().markRead([1]));
    expect(selectUnreadCount(useMessageStore.getState())).toBe(1);
    act(() => useMessageStore.getState().setCounts({ unread: 7, unprocessedAlarm: 4 }));
    expect(selectUnreadCount(useMessageStore.getState())).toBe(7);
    expect(selectUnprocessedAlarmCount(useMessageStore.getState())).toBe(4);
  });

  it('keeps the newest first and one copy of each message', () => {
    act(() => {
      useMessageStore.getState().add(message(2));
      useMessageStore.getState().add(message(5));
      useMessageStore.getState().add(message(3));
      useMessageStore.getState().add(message(5));
    });
    expect(useMessageStore.getState().messages.map((item) => item.id)).toEqual([5, 3, 2]);
  });

  it('takes the server\'s list, keeping messages pushed after it and marks made here', () => {
    act(() => {
      useMessageStore.getState().add(message(1));
      useMessageStore.getState().add(message(9));
      useMessageStore.getState().markRead([1]);
      useMessageStore.getState().setMessages([message(2), message(1)]);
    });
    const { messages } = useMessageStore.getState();
    expect(messages.map((item) => item.id)).toEqual([9, 2, 1]);
    expect(messages.find((item) => item.id === 1)?.isRead).toBe(true);
  });

  it('marks everything read and forgets it all with the session', () => {
    act(() => {
      useMessageStore.getState().add(message(1));
      useMessageStore.getState().add(message(2));
      useMessageStore.getState().markAllRead();
    });
    expect(useMessageStore.getState().messages.every((item) => item.isRead)).toBe(true);
    act(() => useMessageStore.getState().clear());
    expect(useMessageStore.getState()).toMatchObject({ messages: [], counts: null });
  });
});
