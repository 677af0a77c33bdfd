import { PHONE_QUERY } from '@/lib/use-phone';

/** Makes the window phone-sized for what reads usePhone (undone by vi.unstubAllGlobals). */
export function stubPhone() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === PHONE_QUERY,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  }));
}
