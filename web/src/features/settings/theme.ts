import { DEFAULT_SETTINGS } from './settings-store';

/** Arco's dark theme is switched by an attribute on <body>. */
// The browser's bar above an installed console, in the navbar's colour (vite.config.ts THEME_COLOR).
const BAR_COLOR = { light: '#ffffff', dark: '#232324' };

export function applyTheme(theme: 'light' | 'dark'): void {
  if (theme === 'dark') {
    document.body.setAttribute('arco-theme', 'dark');
  } else {
    document.body.removeAttribute('arco-theme');
  }
  // The console's theme is the user's choice, not the system's: both of index.html's
  // theme-color tags (one per system scheme) follow it.
  document.querySelectorAll('meta[name="theme-color"]').forEach((meta) => meta.setAttribute('content', BAR_COLOR[theme]));
}

/** The ten-step primary palette for a theme colour, as the "r,g,b" strings Arco's variables hold. */
export async function primaryPalette(color: string, dark: boolean): Promise<string[]> {
  const { generate, getRgbStr } = await import('@arco-design/color');
  return generate(color, { list: true, dark }).map((step) => getRgbStr(step));
}

let latest = 0;

/**
 * Points Arco's primary colour variables (--primary-1 … --primary-10) at the chosen colour. The
 * default colour is Arco's own blue, which its light and dark themes already carry, so the palette
 * code is only fetched for another colour.
 */
export async function applyThemeColor(color: string, dark: boolean): Promise<void> {
  const call = ++latest;
  const style = document.body.style;
  if (color.toLowerCase() === DEFAULT_SETTINGS.themeColor.toLowerCase()) {
    for (let step = 1; step <= 10; step += 1) {
      style.removeProperty(`--primary-${step}`);
    }
    return;
  }
  const palette = await primaryPalette(color, dark);
  if (call !== latest) {
    return;
  }
  palette.forEach((rgb, index) => style.setProperty(`--primary-${index + 1}`, rgb));
}

/**
 * Colour-weak mode inverts the page's colours by 80 percent (SPEC.md section 4). data-color-weak
 * on <body> lets the tokens keep text legible through the filter and charts tell series apart
 * by pattern and marker as well as by colour.
 */
export function applyColorWeak(on: boolean): void {
  document.body.style.filter = on ? 'invert(80%)' : '';
  if (on) {
    document.body.setAttribute('data-color-weak', '');
  } else {
    document.body.removeAttribute('data-color-weak');
  }
}
