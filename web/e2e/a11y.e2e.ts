import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { type Finding, installAxe, report, seriousFindings, settle } from './axe';
import { declaredRoutes, pathParams, type DeclaredRoute } from './routes';
import { baseUrl, DEMO_PASSWORD, launch, openPage, screenshot, waitForHash } from './support';

// axe-core (WCAG 2.x A and AA) on every route of the console's route table, signed out and in,
// light and dark, zh-CN and en-US. Any serious or critical finding fails the run, so a screen
// added to app/route-config.tsx is checked from its first merge.

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

type Theme = 'light' | 'dark';
type Locale = 'zh-CN' | 'en-US';

interface Envelope<T> {
  code: number;
  data: T;
}

async function apiGet<T>(path: string, token: string): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await response.json()) as Envelope<T>;
  if (body.code !== 200) {
    throw new Error(`${path}: code ${body.code}`);
  }
  return body.data;
}

async function apiToken(): Promise<string> {
  const response = await fetch(`${baseUrl()}/v2/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as Envelope<{ token: string }>).data.token;
}

/**
 * Sample values for route parameters, by the first segment of the route's path: a station's
 * pages get a demo station, a device's pages a demo device. A parameter of an area not listed
 * here gets "1", so its page is still checked (as whatever that id shows).
 */
async function sampleParams(): Promise<Record<string, string>> {
  const token = await apiToken();
  const stations = await apiGet<{ list: { id: number }[] }>('/v2/site/list?pageSize=1', token);
  const devices = await apiGet<{ list: { id: number }[] }>('/v2/dev/listbytype?type=inverter&pageSize=1', token);
  const station = stations.list[0];
  const device = devices.list[0];
  if (!station || !device) {
    throw new Error('the demo has no station or no inverter to open');
  }
  return { station: String(station.id), device: String(device.id) };
}

function concretePath(route: DeclaredRoute, samples: Record<string, string>): string {
  const area = route.path.split('/')[1] ?? '';
  let path = route.path;
  for (const param of pathParams(route.path)) {
    path = path.replace(`:${param}`, samples[area] ?? '1');
  }
  return path;
}

/** A browser profile in the given language and theme (stored before the first load). */
async function profile(context: TestContext, locale: Locale, theme: Theme): Promise<Page> {
  const { page, browserContext } = await openPage(browser, context, locale);
  await installAxe(browserContext);
  await browserContext.addInitScript((value) => {
    if (!window.localStorage.getItem('helio-settings')) {
      window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme: value }, version: 1 }));
    }
  }, theme);
  return page;
}

async function check(page: Page, where: string, findings: Map<string, Finding[]>): Promise<void> {
  await settle(page);
  const found = await seriousFindings(page);
  if (found.length > 0) {
    findings.set(where, found);
  }
}

const SIGNED_IN = declaredRoutes().filter((route) => route.requiresAuth);

async function sweep(context: TestContext, locale: Locale, theme: Theme): Promise<void> {
  const findings = new Map<string, Finding[]>();
  const page = await profile(context, locale, theme);
  const samples = await sampleParams();

  // Signed out: the login page and the not-found page.
  await page.goto(`${baseUrl()}/#/login`);
  await page.locator('input[type="password"]').waitFor();
  await check(page, '/login', findings);
  await page.goto(`${baseUrl()}/#/no-such-page`);
  await check(page, '/no-such-page', findings);

  // Sign in as the administrator, who may open every route.
  await page.goto(`${baseUrl()}/#/login`);
  await page.locator('input[autocomplete="username"], input[name="username"]').first().fill('admin');
  await page.locator('input[type="password"]').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await waitForHash(page, '/monitor');

  for (const route of SIGNED_IN) {
    const path = concretePath(route, samples);
    await page.evaluate((target) => {
      window.location.hash = `#${target}`;
    }, path);
    await waitForHash(page, path);
    await check(page, path, findings);
    if (findings.has(path)) {
      await screenshot(page, `a11y-${theme}-${locale}-${route.name}`);
    }
  }
  await page.evaluate(() => {
    window.location.hash = '#/no-such-page';
  });
  await check(page, '/no-such-page (signed in)', findings);

  expect(findings.size, `serious or critical axe findings (${theme}, ${locale}):\n${report(findings)}`).toBe(0);
}

describe('axe-core, WCAG 2.1 A and AA, every route', () => {
  it(`covers the route table (${SIGNED_IN.length} signed-in routes)`, () => {
    expect(SIGNED_IN.map((route) => route.name)).toContain('monitor');
    expect(SIGNED_IN.map((route) => route.name)).toContain('alarm');
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      it(`has no serious or critical findings (${theme}, ${locale})`, async (context) => {
        await sweep(context, locale, theme);
      }, 600_000);
    }
  }
});
