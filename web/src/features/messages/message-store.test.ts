import { act } from '@testing-library/react';
import {
  type ConsoleMessage,
  selectUnprocessedAlarmCount,
  selectUnreadCount,
  useMessageStore,
} from './message-store';

const alarm = (id: string, isRead: boolean, processed = false): ConsoleMessage => ({
  id,
  kind: 'alarm',
  title: 'Inverter trip',
  content: '',
  time: '2024-01-01T00:00:00Z',
  isRead,
  processed,
});

describe('message store', () => {
  beforeEach(() => act(() => useMessageStore.getState().clear()));

  it('starts empty: nothing has arrived since sign-in', () => {
    expect(useMessageStore.getState().messages).toEqual([]);
    expect(selectUnreadCount(useMessageStore.getState())).toBe(0);
  });

  it('counts unread messages and unprocessed alarms', () => {
    act(() => {
      useMessageStore.getState().add(alarm('a', false));
      useMessageStore.getState().add(alarm('b', true, true));
      useMessageStore.getState().add({ ...alarm('c', false), kind: 'system' });
    });
    expect(selectUnreadCount(useMessageStore.getState())).toBe(2);
    expect(selectUnprocessedAlarmCount(useMessageStore.getState())).toBe(1);
    act(() => useMessageStore.getState().markRead('a'));
    expect(selectUnreadCount(useMessageStore.getState())).toBe(1);
  });
});
