import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils';
import { STATUS_COLORS, statusColor, StatusTag } from './status-tag';

// SPEC.md section 4, "Status tag colours (key category.value)", as Arco palette names.
const SPEC: Record<string, Record<string, string>> = {
  communicationStatus: { 1: 'cyan', 2: 'green', 3: 'orange', 4: 'red' },
  alarmExist: { 0: 'green', 1: 'red' },
  alarmStatus: { 1: 'orange', 2: 'cyan' },
  alarmLevel: { 1: 'cyan', 2: 'orange', 3: 'red' },
  // pink-red, orange, deep orange, green, red
  workOrderStatus: { 1: 'magenta', 2: 'orange', 3: 'orangered', 4: 'green', 5: 'red' },
  workOrderPriority: { 1: 'green', 2: 'cyan', 3: 'orange', 4: 'red' },
  workOrderTimeout: { 1: 'green', 0: 'red' },
};

describe('StatusTag', () => {
  it('colours every category and value as SPEC.md section 4 says', () => {
    for (const [category, values] of Object.entries(SPEC)) {
      for (const [value, color] of Object.entries(values)) {
        expect(statusColor(category as keyof typeof STATUS_COLORS, value)).toBe(color);
      }
      expect(Object.keys(STATUS_COLORS[category as keyof typeof STATUS_COLORS]).sort()).toEqual(Object.keys(values).sort());
    }
  });

  it('draws every SPEC status with its translated name and colour token', () => {
    for (const [category, values] of Object.entries(SPEC)) {
      for (const [value, color] of Object.entries(values)) {
        const { unmount } = renderWithProviders(
          <StatusTag category={category as keyof typeof STATUS_COLORS} value={value} />,
        );
        const tag = document.querySelector('[data-color]') as HTMLElement;
        expect(tag.dataset.color).toBe(color);
        expect(tag.style.getPropertyValue('--status-color')).toBe(`rgb(var(--${color}-6))`);
        expect(tag.textContent).not.toBe(`status.${category}.${value}`);
        unmount();
      }
    }
  });

  it('shows the name, an optional dot, as coloured text or a filled square', () => {
    const { rerender } = renderWithProviders(<StatusTag category="communicationStatus" value={4} dot />);
    const tag = screen.getByText('全部设备离线');
    expect(tag.dataset.appearance).toBe('text');
    expect(tag.querySelector('[aria-hidden]')).not.toBeNull();
    rerender(<StatusTag category="alarmExist" value={1} appearance="filled" />);
    const filled = screen.getByText('有告警');
    expect(filled.dataset.appearance).toBe('filled');
    expect(filled.querySelector('[aria-hidden]')).toBeNull();
  });

  it('falls back to gray for a value the category does not know', () => {
    expect(statusColor('communicationStatus', 9)).toBe('gray');
  });
});
