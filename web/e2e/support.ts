import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject, type TestContext } from 'vitest';

export const SCREENSHOTS = join(process.cwd(), 'e2e', 'screenshots');
export const DEMO_PASSWORD = 'helio-demo';

export function baseUrl(): string {
  return inject('baseUrl');
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh browser profile (empty localStorage) and page. A locale string seeds the console
 * language on the first load only, so a switch made by the test sticks across reloads;
 * { browser } instead sets the browser's own language and leaves the console to choose.
 */
export async function openPage(
  browser: Browser,
  context: TestContext,
  locale?: string | { browser: string },
  viewport = { width: 1440, height: 900 },
): Promise<{ page: Page; browserContext: BrowserContext }> {
  const browserContext = await browser.newContext({
    viewport,
    ...(typeof locale === 'object' ? { locale: locale.browser } : {}),
  });
  if (typeof locale === 'string') {
    await browserContext.addInitScript((value) => {
      if (!window.localStorage.getItem('helio-locale')) {
        window.localStorage.setItem('helio-locale', value);
      }
    }, locale);
  }
  const page = await browserContext.newPage();
  page.setDefaultTimeout(20_000);
  context.onTestFinished(async () => {
    if (context.task.result?.state === 'fail') {
      await screenshot(page, `failed-${context.task.name.replace(/[^\w-]+/g, '-')}`).catch(() => {});
    }
    await browserContext.close();
  });
  return { page, browserContext };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // A full-page shot of a scrolled page draws the fixed navbar where the viewport was, and
  // toasts and closing popups of the step before would cover the screen: start from the
  // top once they are gone.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page
    .locator('.arco-message')
    .first()
    .waitFor({ state: 'detached', timeout: 6_000 })
    .catch(() => undefined);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The part of the address after the hash: "/login?redirect=station&x=1". */
export function hashPath(page: Page): string {
  return decodeURIComponent(new URL(page.url()).hash.replace(/^#/, ''));
}

export async function waitForHash(page: Page, expected: string | RegExp, timeout?: number): Promise<void> {
  await page.waitForFunction(
    (pattern) => {
      const hash = decodeURIComponent(window.location.hash.replace(/^#/, ''));
      return pattern.regex ? new RegExp(pattern.source).test(hash) : hash === pattern.source;
    },
    typeof expected === 'string'
      ? { regex: false, source: expected }
      : { regex: true, source: expected.source },
    { timeout },
  );
}

/** Signs in through the form (English labels). */
export async function signIn(page: Page, username = 'admin', password = DEMO_PASSWORD) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A demo user's token from an API sign-in; a refused sign-in throws. */
export async function apiToken(username = 'admin'): Promise<string> {
  const response = await fetch(`${baseUrl()}/v2/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  const envelope = (await response.json()) as { code: number; data: { token?: string } | null };
  if (envelope.code !== 200 || !envelope.data?.token) {
    throw new Error(`sign-in as ${username}: code ${envelope.code}`);
  }
  return envelope.data.token;
}

/** How api() calls: GET without a body and POST with one unless method says otherwise; lang
 * is sent as Accept-Language (none: the server's default). */
export interface CallInit {
  method?: string;
  body?: unknown;
  lang?: string;
}

/** A call of the API as a signed-in user (anonymous without a token): the envelope's data. An
 * envelope whose code is not 200 throws, naming the path, the code and the message. */
export async function api<T>(path: string, token = '', init: CallInit = {}): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (init.lang) {
    headers['Accept-Language'] = init.lang;
  }
  const response = await fetch(`${baseUrl()}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const envelope = (await response.json()) as { code: number; msg: string; data: T };
  if (envelope.code !== 200) {
    throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
  }
  return envelope.data;
}

/** A GET of the API as a signed-in user: the envelope's data. */
export function apiGet<T>(path: string, token: string): Promise<T> {
  return api<T>(path, token);
}

/** A POST to the API as a signed-in user (or anonymous without a token): the envelope's data. */
export function apiPost<T>(path: string, body: unknown, token = ''): Promise<T> {
  return api<T>(path, token, { method: 'POST', body });
}

/** A page signed in with an API token (no sign-in form), in a locale and theme. */
export async function signedInPage(
  browser: Browser,
  context: TestContext,
  { user = 'admin', locale = 'en-US', theme = 'light' }: { user?: string; locale?: string; theme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const token = await apiToken(user);
  const { page, browserContext } = await openPage(browser, context, locale);
  await browserContext.addInitScript(
    ({ token, theme }) => {
      if (!window.localStorage.getItem('helio-token')) {
        window.localStorage.setItem('helio-token', token);
        window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme }, version: 1 }));
      }
    },
    { token, theme },
  );
  return page;
}

/**
 * A plant of a test's own, made through the API: a 30 kWp ground station in Golmud
 * (Asia/Shanghai, CNY) with one 20 kW inverter of the given serial number.
 */
export async function createPlant(
  token: string,
  { station, address, sn, device }: { station: string; address: string; sn: string; device: string },
): Promise<{ stationId: number; deviceId: number }> {
  const { id: stationId } = await apiPost<{ id: number }>(
    '/v2/site/add',
    {
      name: station,
      location: 'Golmud',
      region: 'Qinghai',
      address,
      timezone: 'Asia/Shanghai',
      stationType: 'ground',
      systemType: 'pv',
      capacityKwp: 30,
      lat: 36.4,
      lng: 94.9,
      azimuth: 180,
      inclination: 30,
      currency: 'CNY',
      tagIds: [],
    },
    token,
  );
  const { id: deviceId } = await apiPost<{ id: number }>(
    '/v2/dev/add',
    { stationId, name: device, sn, type: 'inverter', ratedPowerKw: 20, componentRatedPowerW: 400, componentCount: 60, stringsTotal: 2, stringsEnabled: 2 },
    token,
  );
  return { stationId, deviceId };
}
