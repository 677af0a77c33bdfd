import { act, render, screen } from '@testing-library/react';
import { chromium } from 'playwright-core';
import { i18n } from '@/lib/i18n';
import { Chart } from './chart';
import { exportMarkup, rasterise } from './chart-export';
import type { ChartSpec } from './chart-spec';
import { readChartTheme } from './chart-theme';

const DARK: Record<string, string> = {
  '--color-text-1': 'rgba(255, 255, 255, 0.9)',
  '--color-text-2': 'rgba(255, 255, 255, 0.7)',
  '--color-border-2': '#333335',
  '--color-border-3': '#484849',
  '--color-bg-2': '#232324',
  '--primary-6': '60,126,255',
  '--green-6': '39,195,70',
};

const spec = (): ChartSpec => ({
  categories: ['Mon', 'Tue', 'Wed'],
  legend: true,
  series: [
    { name: 'PV & storage', kind: 'bar', data: [10, 20, 30] },
    { name: 'PR', kind: 'line', data: [80, 82, 79] },
  ],
});

/** The dark chart's standalone SVG: a dark background, the title and legend, the plot. */
async function darkMarkup() {
  await act(() => i18n.changeLanguage('en-US'));
  document.body.setAttribute('arco-theme', 'dark');
  for (const [name, value] of Object.entries(DARK)) {
    document.body.style.setProperty(name, value);
  }
  render(<Chart spec={spec} label="Energy <May>" exportName="energy" />);
  expect(screen.getByRole('button', { name: 'Export PNG' })).toBeInTheDocument();
  const svg = screen.getByRole('img', { name: 'Energy <May>' }).querySelector('svg')!;
  const theme = readChartTheme();
  return exportMarkup(svg, {
    title: 'Energy <May>',
    legend: [
      { name: 'PV & storage', kind: 'bar', color: theme.palette[0]! },
      { name: 'PR', kind: 'line', color: theme.palette[1]! },
    ],
    theme,
  });
}

describe('chart export', () => {
  afterEach(() => {
    document.body.removeAttribute('arco-theme');
    document.body.removeAttribute('style');
  });

  it('keeps the dark background and colours, with the title and legend above the plot', async () => {
    const { markup, width, height } = await darkMarkup();
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    const root = doc.documentElement;
    expect(root.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(width).toBe(600);
    expect(height).toBeGreaterThan(300);
    expect(root.querySelector(':scope > rect')?.getAttribute('fill')).toBe('#232324');
    const texts = [...root.querySelectorAll(':scope > text')].map((text) => text.textContent);
    expect(texts).toEqual(['Energy <May>', 'PV & storage', 'PR']);
    expect(root.querySelector(':scope > text')?.getAttribute('fill')).toBe(DARK['--color-text-1']);
    const plot = root.querySelector(':scope > svg')!;
    expect(Number(plot.getAttribute('y'))).toBeGreaterThan(30);
    expect(plot.querySelectorAll('rect[fill="rgb(60,126,255)"]')).toHaveLength(3);
  });

  it('draws the markup to a PNG in a browser: a PNG blob with the dark background', async () => {
    const { markup, width, height } = await darkMarkup();
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      const got = await page.evaluate(
        async ({ source, markup, width, height }) => {
          const draw = new Function(`return (${source})`)() as typeof rasterise;
          const blob = await draw(markup, width, height, 2);
          const bytes = new Uint8Array(await blob.arrayBuffer());
          const bitmap = await createImageBitmap(blob);
          const canvas = document.createElement('canvas');
          canvas.width = bitmap.width;
          canvas.height = bitmap.height;
          const context = canvas.getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          return {
            type: blob.type,
            head: [...bytes.slice(0, 8)],
            size: [bitmap.width, bitmap.height],
            corner: [...context.getImageData(2, bitmap.height - 2, 1, 1).data],
          };
        },
        { source: rasterise.toString(), markup, width, height },
      );
      expect(got.type).toBe('image/png');
      expect(got.head).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      expect(got.size).toEqual([width * 2, height * 2]);
      // #232324, the dark card background
      expect(got.corner).toEqual([0x23, 0x23, 0x24, 255]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
