import { useEffect } from 'react';
import { useSettingsStore } from './settings-store';
import { applyColorWeak, applyTheme, applyThemeColor } from './theme';

const MOBILE_MAX_WIDTH = 768;

/** Keeps the page in step with the settings: theme, theme colour, colour-weak mode, device. */
export function useApplySettings(): void {
  const theme = useSettingsStore((state) => state.theme);
  const themeColor = useSettingsStore((state) => state.themeColor);
  const colorWeak = useSettingsStore((state) => state.colorWeak);
  const update = useSettingsStore((state) => state.update);

  useEffect(() => {
    applyTheme(theme);
    void applyThemeColor(themeColor, theme === 'dark');
  }, [theme, themeColor]);

  useEffect(() => {
    applyColorWeak(colorWeak);
  }, [colorWeak]);

  useEffect(() => {
    const onResize = () => {
      const mobile = window.innerWidth < MOBILE_MAX_WIDTH;
      const device = mobile ? 'mobile' : 'desktop';
      if (useSettingsStore.getState().device !== device) {
        update(mobile ? { device, menuCollapse: true } : { device });
      }
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [update]);
}
