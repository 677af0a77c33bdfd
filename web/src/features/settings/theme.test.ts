import { applyColorWeak, applyTheme, applyThemeColor, primaryPalette } from './theme';

describe('theme', () => {
  it('switches Arco dark mode with the body attribute', () => {
    applyTheme('dark');
    expect(document.body.getAttribute('arco-theme')).toBe('dark');
    applyTheme('light');
    expect(document.body.hasAttribute('arco-theme')).toBe(false);
  });

  it('derives the primary palette from the theme colour', async () => {
    const palette = await primaryPalette('#165DFF', false);
    expect(palette).toHaveLength(10);
    expect(palette[5]).toBe('22,93,255');
  });

  it('sets the primary variables for another colour and clears them for the default', async () => {
    await applyThemeColor('#00B42A', false);
    expect(document.body.style.getPropertyValue('--primary-6')).toBe('0,180,42');
    await applyThemeColor('#165DFF', false);
    expect(document.body.style.getPropertyValue('--primary-6')).toBe('');
  });

  it('inverts the page by 80% in colour-weak mode and removes it again', () => {
    applyColorWeak(true);
    expect(document.body.style.filter).toBe('invert(80%)');
    expect(document.body).toHaveAttribute('data-color-weak');
    applyColorWeak(false);
    expect(document.body.style.filter).toBe('');
    expect(document.body).not.toHaveAttribute('data-color-weak');
  });
});
