import { useEffect, useState } from 'react';

/** What a chart needs from the console theme; read from Arco's design tokens, never hard-coded. */
export interface ChartTheme {
  dark: boolean;
  /** Colour-weak mode: series differ by pattern and dash as well as by colour. */
  colorWeak: boolean;
  text: string;
  textSecondary: string;
  axisLine: string;
  splitLine: string;
  tooltipBackground: string;
  tooltipBorder: string;
  /** The card background: hollow dots and highlight rims are filled with it. */
  background: string;
  /** Series colours, in order: primary, green, orange, cyan, purple, gold, magenta, red. */
  palette: string[];
  /** A named Arco colour at a step (6 is the solid tone), e.g. color('red'). */
  color: (name: string, step?: number) => string;
}

const PALETTE = ['primary', 'green', 'orange', 'cyan', 'purple', 'gold', 'magenta', 'red'];

function token(style: CSSStyleDeclaration, name: string): string {
  return style.getPropertyValue(name).trim();
}

/** Reads the tokens in force on <body> (light or dark, and the chosen theme colour). */
export function readChartTheme(): ChartTheme {
  const style = getComputedStyle(document.body);
  const color = (name: string, step = 6) => {
    const triplet = token(style, `--${name}-${step}`);
    return triplet ? `rgb(${triplet})` : '';
  };
  return {
    dark: document.body.getAttribute('arco-theme') === 'dark',
    colorWeak: document.body.hasAttribute('data-color-weak'),
    text: token(style, '--color-text-1'),
    textSecondary: token(style, '--color-text-2'),
    axisLine: token(style, '--color-border-3'),
    splitLine: token(style, '--color-border-2'),
    tooltipBackground: token(style, '--color-bg-popup'),
    tooltipBorder: token(style, '--color-border-2'),
    background: token(style, '--color-bg-2'),
    palette: PALETTE.map((name) => color(name)),
    color,
  };
}

/** The chart theme, read again whenever the theme, the theme colour or colour weakness changes. */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(readChartTheme);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(readChartTheme()));
    observer.observe(document.body, { attributes: true, attributeFilter: ['arco-theme', 'style', 'class', 'data-color-weak'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}
