import { textWidth } from './chart-geometry';
import type { ChartTheme } from './chart-theme';

/** A legend entry of the exported picture. */
export interface ExportLegendItem {
  name: string;
  color: string;
  kind: 'bar' | 'line';
}

export interface ExportOptions {
  /** Written above the chart. */
  title: string;
  /** The series shown, drawn as a legend under the title. */
  legend: readonly ExportLegendItem[];
  theme: ChartTheme;
  /** The console's font stack: an SVG drawn as an image inherits nothing. */
  fontFamily?: string;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char]!);

const LINE = 20;
const PAD = 12;

/** The legend's rows: entries laid left to right, wrapping at width. */
function legendRows(legend: readonly ExportLegendItem[], width: number): { item: ExportLegendItem; x: number; row: number }[] {
  const out: { item: ExportLegendItem; x: number; row: number }[] = [];
  let x = PAD;
  let row = 0;
  for (const item of legend) {
    const span = 22 + textWidth(item.name) + 16;
    if (x > PAD && x + span > width - PAD) {
      x = PAD;
      row++;
    }
    out.push({ item, x, row });
    x += span;
  }
  return out;
}

/**
 * The chart as one standalone SVG document: the theme's background (a dark chart stays dark),
 * the title and legend above the plot, and the plot as drawn (zoomed, hidden series left out).
 */
export function exportMarkup(svg: SVGSVGElement, { title, legend, theme, fontFamily }: ExportOptions): { markup: string; width: number; height: number } {
  const width = Number(svg.getAttribute('width')) || svg.viewBox.baseVal?.width || 600;
  const plotHeight = Number(svg.getAttribute('height')) || svg.viewBox.baseVal?.height || 300;
  const rows = legendRows(legend, width);
  const legendHeight = rows.length ? (rows[rows.length - 1]!.row + 1) * LINE : 0;
  const top = PAD + LINE + legendHeight + 4;
  const height = top + plotHeight;

  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.removeAttribute('aria-hidden');
  clone.removeAttribute('focusable');
  clone.setAttribute('x', '0');
  clone.setAttribute('y', String(top));
  const plot = new XMLSerializer().serializeToString(clone);

  const entries = rows
    .map(({ item, x, row }) => {
      const y = PAD + LINE + row * LINE + LINE / 2;
      const mark =
        item.kind === 'line'
          ? `<line x1="${x}" x2="${x + 16}" y1="${y}" y2="${y}" stroke="${escapeXml(item.color)}" stroke-width="2"/>`
          : `<rect x="${x}" y="${y - 5}" width="16" height="10" rx="2" fill="${escapeXml(item.color)}"/>`;
      return `${mark}<text x="${x + 22}" y="${y}" dy="0.35em" fill="${escapeXml(theme.textSecondary)}">${escapeXml(item.name)}</text>`;
    })
    .join('');
  const font = escapeXml(fontFamily || 'sans-serif');
  const markup =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${font}" font-size="12">` +
    `<rect width="${width}" height="${height}" fill="${escapeXml(theme.background || (theme.dark ? '#232324' : '#ffffff'))}"/>` +
    `<text x="${PAD}" y="${PAD + LINE / 2}" dy="0.35em" font-size="14" font-weight="500" fill="${escapeXml(theme.text)}">${escapeXml(title)}</text>` +
    entries +
    plot +
    `</svg>`;
  return { markup, width, height };
}

/**
 * Draws an SVG document on a canvas `scale` times its size and encodes it as PNG. Kept free of
 * imports and outer names, so a browser can run its source as it stands.
 */
export function rasterise(markup: string, width: number, height: number, scale: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml;charset=utf-8' }));
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      const context = canvas.getContext('2d');
      if (!context) {
        reject(new Error('no 2d canvas'));
        return;
      }
      context.scale(scale, scale);
      context.drawImage(image, 0, 0, width, height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no PNG'))), 'image/png');
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the chart could not be drawn as an image'));
    };
    image.src = url;
  });
}

/** Saves a blob under a file name, as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The chart as a PNG: exportMarkup drawn at the device's pixel ratio (at least 2, for print). */
export async function chartPng(svg: SVGSVGElement, options: ExportOptions): Promise<Blob> {
  const { markup, width, height } = exportMarkup(svg, options);
  return rasterise(markup, width, height, Math.max(2, window.devicePixelRatio || 1));
}
