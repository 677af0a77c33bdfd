import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { type Finding, installAxe, report, seriousFindings, settle } from './axe';
import { concretePath, sampleParams, SIGNED_IN } from './route-samples';
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

async function sweep(context: TestContext, locale: Locale, theme: Theme): Promise<void> {
  const { expect } = context;
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

// The four sweeps only read, each in its own browser profile: they run side by side, as the
// page mostly waits on the server and on the DOM to settle.
describe.concurrent('axe-core, WCAG 2.1 A and AA, every route', () => {
  it(`covers the route table (${SIGNED_IN.length} signed-in routes)`, ({ expect }) => {
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
