// Draws one line of n points with the console's own chart geometry into an SVG, the way
// components/chart/chart-plot.tsx does (a path per line), for bench/chart.mjs.
import { layoutChart } from '@/components/chart/chart-geometry';

export function drawOwn(host: HTMLElement, values: number[], width: number, height: number): number {
  const start = performance.now();
  const spec = { categories: values.map((_, i) => String(i)), series: [{ name: 'power', kind: 'line' as const, data: values }] };
  const layout = layoutChart(spec, new Set(), width, height);
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  for (const line of layout.lines) {
    for (const d of line.paths) {
      const path = document.createElementNS(ns, 'path');
      path.setAttribute('d', d);
      path.setAttribute('fill', 'none');
      path.setAttribute('stroke', '#165dff');
      svg.appendChild(path);
    }
  }
  host.replaceChildren(svg);
  return performance.now() - start;
}

(window as unknown as { drawOwn: typeof drawOwn }).drawOwn = drawOwn;
