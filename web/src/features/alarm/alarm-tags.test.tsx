import { renderWithProviders } from '@/testing/test-utils';
import { alarmLevelColor, AlarmLevelTag, alarmStatusColor, AlarmStatusTag, levelTagValue } from './alarm-tags';

describe('alarm tags', () => {
  it('colours alarm statuses as SPEC.md section 4 says: occurring orange, recovered cyan', () => {
    expect(alarmStatusColor(1)).toBe('orange');
    expect(alarmStatusColor(2)).toBe('cyan');
  });

  it('colours levels 0-2 with the alarmLevel colours 1-3: cyan, orange, red', () => {
    expect([0, 1, 2].map(levelTagValue)).toEqual([1, 2, 3]);
    expect(alarmLevelColor(0)).toBe('cyan');
    expect(alarmLevelColor(1)).toBe('orange');
    expect(alarmLevelColor(2)).toBe('red');
    expect(alarmLevelColor(7)).toBe('gray');
  });

  it('draws the tags with theme tokens and translated names', () => {
    const { unmount } = renderWithProviders(<AlarmLevelTag level={2} />);
    const level = document.querySelector('[data-color]') as HTMLElement;
    expect(level.dataset.color).toBe('red');
    expect(level.style.getPropertyValue('--status-color')).toBe('rgb(var(--red-6))');
    expect(level.textContent).toBe('故障');
    unmount();
    renderWithProviders(<AlarmStatusTag status={1} />);
    const status = document.querySelector('[data-color]') as HTMLElement;
    expect(status.dataset.color).toBe('orange');
    expect(status.textContent).toBe('发生中');
  });
});
