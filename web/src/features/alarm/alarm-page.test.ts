import { tabOf } from './alarm-page';
import { alarmsChanged } from './use-alarm-push';

const message = (messageType: string) =>
  ({
    type: 'message',
    message: { id: 1, messageType } as never,
  }) as const;

describe('alarm page', () => {
  it('opens the tab the address names; the rules tab only for administrators', () => {
    expect(tabOf(new URLSearchParams(''), false)).toBe('list');
    expect(tabOf(new URLSearchParams('tab=settings'), false)).toBe('settings');
    expect(tabOf(new URLSearchParams('tab=rules'), false)).toBe('list');
    expect(tabOf(new URLSearchParams('tab=rules'), true)).toBe('rules');
    expect(tabOf(new URLSearchParams('tab=nonsense'), true)).toBe('list');
  });

  it('refreshes the alarms on a pushed alarm, a changed unprocessed count, a work-order change or a reconnection', () => {
    expect(alarmsChanged(message('alarm'), null)).toBe(true);
    expect(alarmsChanged(message('workorder'), null)).toBe(false);
    const counts = (unprocessedAlarm: number) => ({ type: 'counts', counts: { unread: 0, unprocessedAlarm } }) as const;
    expect(alarmsChanged(counts(2), null)).toBe(false);
    expect(alarmsChanged(counts(2), 2)).toBe(false);
    expect(alarmsChanged(counts(1), 2)).toBe(true);
    expect(alarmsChanged({ type: 'hello', userId: 1, since: '', reconnected: false }, null)).toBe(false);
    expect(alarmsChanged({ type: 'hello', userId: 1, since: '', reconnected: true }, null)).toBe(true);
    expect(alarmsChanged({ type: 'status', status: 'open' }, null)).toBe(false);
    expect(alarmsChanged({ type: 'orders', at: '' }, null)).toBe(true);
  });
});
