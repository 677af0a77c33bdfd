import { create } from 'zustand';

/**
 * The console's service worker (public/sw.js): registered at start by the built console (it
 * keeps the shell for offline starts) and again, on demand, for app push notifications.
 * Browsers without service workers (or an insecure origin other than localhost) get null.
 */
export async function serviceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) {
    return null;
  }
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** Whether this browser can receive app push notifications at all. */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;
}

/** The applicationServerKey PushManager.subscribe takes, from the server's base64url key. */
export function serverKey(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Whether a newer console took over this page's worker: the page should be reloaded. */
export const useConsoleUpdate = create<{ ready: boolean }>(() => ({ ready: false }));

// A console left open for days still learns of a new version.
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the worker that keeps the console's shell (the built console only: the development
 * server's files change under the same names). A newer worker taking over a page the old one
 * controlled marks the update ready (the page runs the old code, whose files the server no
 * longer has).
 */
export function registerShellWorker(production = import.meta.env.PROD): void {
  if (!production || !('serviceWorker' in navigator) || !window.isSecureContext) {
    return;
  }
  const container = navigator.serviceWorker;
  const controlled = container.controller !== null;
  container.addEventListener('controllerchange', () => {
    if (controlled) {
      useConsoleUpdate.setState({ ready: true });
    }
  });
  const register = () => {
    container
      .register('/sw.js', { scope: '/' })
      .then((registration) => {
        window.setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
      })
      .catch(() => undefined);
  };
  if (document.readyState === 'complete') {
    register();
  } else {
    window.addEventListener('load', register, { once: true });
  }
}
