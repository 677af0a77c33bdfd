import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@/lib/i18n';
import { Chart } from './chart';
import type { ChartSpec } from './chart-spec';
import type { ChartTheme } from './chart-theme';

const spec = (theme: ChartTheme): ChartSpec => ({
  categories: ['Mon', 'Tue', 'Wed'],
  legend: true,
  axes: [{ name: 'kWh' }, { name: 'CNY' }],
  series: [
    { name: 'PV', kind: 'bar', unit: 'kWh', data: [10, 20, 30] },
    { name: 'Load', kind: 'bar', unit: 'kWh', data: [5, null, 15] },
    { name: 'Profit', kind: 'line', axis: 1, smooth: true, color: theme.color('gold'), data: [1, 2, 3] },
  ],
});

function bars(chart: HTMLElement, color: string): number {
  return [...chart.querySelectorAll('rect')].filter((rect) => rect.getAttribute('fill') === color).length;
}

const DARK: Record<string, string> = {
  '--color-text-1': 'rgba(255, 255, 255, 0.9)',
  '--color-text-2': 'rgba(255, 255, 255, 0.7)',
  '--color-border-2': '#333335',
  '--color-border-3': '#484849',
  '--color-bg-popup': '#373739',
  '--color-bg-2': '#232324',
  '--primary-6': '60,126,255',
  '--green-6': '39,195,70',
  '--gold-6': '255,205,0',
};

describe('Chart', () => {
  beforeEach(async () => {
    await act(() => i18n.changeLanguage('en-US'));
    document.body.setAttribute('arco-theme', 'dark');
    for (const [name, value] of Object.entries(DARK)) {
      document.body.style.setProperty(name, value);
    }
  });

  afterEach(() => {
    document.body.removeAttribute('arco-theme');
    document.body.removeAttribute('style');
  });

  it('is an image named by its label, with a title, drawing each value', () => {
    render(<Chart spec={spec} label="Energy" />);
    const chart = screen.getByRole('img', { name: 'Energy' });
    expect(chart).toHaveAttribute('tabindex', '0');
    expect(chart.querySelector('svg > title')).toHaveTextContent('Energy');
    expect(bars(chart, 'rgb(60,126,255)')).toBe(3);
    expect(bars(chart, 'rgb(39,195,70)')).toBe(2);
    expect(chart.querySelector('path[stroke], g[stroke="rgb(255,205,0)"] path')).not.toBeNull();
    expect(within(chart).getByText('kWh')).toBeInTheDocument();
    expect(within(chart).getByText('CNY')).toBeInTheDocument();
  });

  it('takes its colours from the theme: dark labels, dashed split lines, dark tooltip', async () => {
    render(<Chart spec={spec} label="Energy" />);
    const chart = screen.getByRole('img', { name: 'Energy' });
    const label = within(chart).getByText('Wed');
    expect(label.closest('g[fill]')).toHaveAttribute('fill', DARK['--color-text-2']);
    const split = chart.querySelector('g[stroke-dasharray]');
    expect(split).toHaveAttribute('stroke', DARK['--color-border-2']);
    expect(split!.querySelectorAll('line').length).toBeGreaterThan(2);
    chart.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tooltip')).toHaveStyle({ background: DARK['--color-bg-popup'] });
  });

  it('hides and shows a series from its legend button', async () => {
    render(<Chart spec={spec} label="Energy" />);
    const chart = screen.getByRole('img', { name: 'Energy' });
    const legend = screen.getByRole('group', { name: 'Series' });
    const load = within(legend).getByRole('button', { name: 'Load', pressed: true });
    await userEvent.click(load);
    expect(load).toHaveAttribute('aria-pressed', 'false');
    expect(bars(chart, 'rgb(39,195,70)')).toBe(0);
    expect(bars(chart, 'rgb(60,126,255)')).toBe(3);
    load.focus();
    await userEvent.keyboard('{Enter}');
    expect(load).toHaveAttribute('aria-pressed', 'true');
    expect(bars(chart, 'rgb(39,195,70)')).toBe(2);
  });

  it('moves the tooltip with the arrow keys and hides it with Escape', async () => {
    render(<Chart spec={spec} label="Energy" />);
    const chart = screen.getByRole('img', { name: 'Energy' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    chart.focus();
    await userEvent.keyboard('{ArrowRight}');
    let tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('Mon');
    expect(tooltip).toHaveTextContent('PV10 kWh');
    await userEvent.keyboard('{ArrowRight}');
    tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('Tue');
    // a missing value reads as a dash
    expect(tooltip).toHaveTextContent('Load–');
    expect(chart).toHaveAttribute('aria-describedby', tooltip.id);
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('tooltip')).toHaveTextContent('Wed');
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tooltip')).toHaveTextContent('Tue');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('lists only the shown series in the tooltip', async () => {
    render(<Chart spec={spec} label="Energy" />);
    await userEvent.click(screen.getByRole('button', { name: 'PV' }));
    screen.getByRole('img', { name: 'Energy' }).focus();
    await userEvent.keyboard('{End}');
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('Wed');
    expect(tooltip).not.toHaveTextContent('PV');
    expect(tooltip).toHaveTextContent('Profit3');
  });

  it('shows the tooltip of the category under the pointer', () => {
    render(<Chart spec={spec} label="Energy" />);
    const chart = screen.getByRole('img', { name: 'Energy' });
    // unmeasured in jsdom: laid out at 600 × 300 from the element's origin
    // jsdom has no PointerEvent: a mouse event of that type carries the coordinates
    act(() => void chart.dispatchEvent(new MouseEvent('pointermove', { bubbles: true, clientX: 520, clientY: 100 })));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Wed');
    fireEvent.pointerLeave(chart);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('keeps the loading, error and empty states', async () => {
    const retry = vi.fn();
    const { rerender } = render(<Chart spec={spec} label="Energy" loading />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    rerender(<Chart spec={spec} label="Energy" error onRetry={retry} />);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalled();
    rerender(<Chart spec={spec} label="Energy" empty />);
    expect(screen.getByText('No data')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Energy' })).toBeNull();
  });

  it('shows its data as a table on demand, and the chart again', async () => {
    render(<Chart spec={spec} label="Energy" />);
    const toggle = screen.getByRole('button', { name: 'Data table' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const table = within(screen.getByRole('region', { name: 'Energy' })).getByRole('table', { name: 'Energy' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Period', 'PV', 'Load', 'Profit']);
    const tue = within(table).getByRole('row', { name: /Tue/ });
    expect(within(tue).getAllByRole('cell').map((td) => td.textContent)).toEqual(['20 kWh', '–', '2']);
    expect(screen.queryByRole('img', { name: 'Energy' })).toBeNull();
    await userEvent.click(toggle);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('img', { name: 'Energy' })).toBeInTheDocument();
  });

  it('tells series apart by pattern and dash in colour-weak mode only', () => {
    const { unmount } = render(<Chart spec={spec} label="Energy" />);
    let chart = screen.getByRole('img', { name: 'Energy' });
    expect(chart.querySelector('pattern')).toBeNull();
    expect(chart.querySelector('path[stroke-dasharray]')).toBeNull();
    unmount();
    document.body.setAttribute('data-color-weak', '');
    try {
      render(<Chart spec={spec} label="Energy" />);
      chart = screen.getByRole('img', { name: 'Energy' });
      // The first bar series stays plain, the second is patterned, the line (third) dashed.
      expect(bars(chart, 'rgb(60,126,255)')).toBe(3);
      const pattern = chart.querySelector('pattern')!;
      expect(bars(chart, `url(#${pattern.id})`)).toBe(2);
      expect(chart.querySelector('path[stroke-dasharray]')).not.toBeNull();
      // The legend shows the same marks.
      const legend = screen.getByRole('group', { name: 'Series' });
      expect(within(legend).getByRole('button', { name: 'Load' }).querySelector('svg > rect')?.getAttribute('fill')).toMatch(/^url\(#/);
      expect(within(legend).getByRole('button', { name: 'Profit' }).querySelector('line')).toHaveAttribute('stroke-dasharray');
    } finally {
      document.body.removeAttribute('data-color-weak');
    }
  });

  const week = (): ChartSpec => ({
    categories: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
    legend: true,
    series: [
      { name: 'PV', kind: 'bar', data: [1, 2, 3, 4, 5, 6, 7] },
      { name: 'Load', kind: 'bar', data: [7, 6, 5, 4, 3, 2, 1] },
    ],
  });
  const pointer = (chart: HTMLElement, type: string, clientX: number) =>
    act(() => void chart.dispatchEvent(new MouseEvent(type, { bubbles: true, clientX, clientY: 100, button: 0 })));
  const xLabels = (chart: HTMLElement) => [...chart.querySelectorAll('text')].map((text) => text.textContent).filter((text) => /^[A-Z][a-z]{2}$/.test(text ?? ''));

  it('zooms into the categories dragged across, keeps legend toggles, and resets', async () => {
    render(<Chart spec={week} label="Week" zoom />);
    const chart = screen.getByRole('img', { name: 'Week' });
    expect(screen.queryByRole('button', { name: 'Reset zoom' })).toBeNull();
    // unmeasured: 600 px wide, seven bands from the left margin; drag from Tue to Thu
    const band = (600 - 16 - 30) / 7;
    pointer(chart, 'pointerdown', 35 + band * 1.5);
    pointer(chart, 'pointermove', 35 + band * 3.5);
    expect(screen.getByTestId('zoom-selection')).toBeInTheDocument();
    pointer(chart, 'pointerup', 35 + band * 3.5);
    expect(xLabels(chart)).toEqual(['Tue', 'Wed', 'Thu']);
    expect(bars(chart, 'rgb(60,126,255)')).toBe(3);
    // legend toggles act on the zoomed view
    await userEvent.click(screen.getByRole('button', { name: 'PV' }));
    expect(bars(chart, 'rgb(60,126,255)')).toBe(0);
    expect(xLabels(chart)).toEqual(['Tue', 'Wed', 'Thu']);
    const reset = screen.getByRole('button', { name: 'Reset zoom' });
    reset.focus();
    await userEvent.keyboard('{Enter}');
    expect(xLabels(chart)).toHaveLength(7);
    expect(screen.queryByRole('button', { name: 'Reset zoom' })).toBeNull();
  });

  it('zooms with + and − from the keyboard around the highlighted category', async () => {
    render(<Chart spec={week} label="Week" zoom />);
    const chart = screen.getByRole('img', { name: 'Week' });
    expect(document.getElementById(chart.getAttribute('aria-describedby')!)).toHaveTextContent('press + and −');
    chart.focus();
    await userEvent.keyboard('{End}+');
    // half of seven, rounded up, ending at the last
    expect(xLabels(chart)).toEqual(['Thu', 'Fri', 'Sat', 'Sun']);
    // the highlighted category stays highlighted
    expect(screen.getByRole('tooltip')).toHaveTextContent('Sun');
    await userEvent.keyboard('-');
    expect(xLabels(chart)).toHaveLength(7);
  });

  it('does not zoom unless asked to', () => {
    render(<Chart spec={week} label="Week" />);
    const chart = screen.getByRole('img', { name: 'Week' });
    pointer(chart, 'pointerdown', 100);
    pointer(chart, 'pointermove', 400);
    pointer(chart, 'pointerup', 400);
    expect(xLabels(chart)).toHaveLength(7);
    expect(screen.queryByRole('button', { name: 'Export PNG' })).toBeNull();
  });
});
