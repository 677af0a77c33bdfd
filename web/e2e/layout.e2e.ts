import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { settle } from './axe';
import { concretePath, sampleParams, SIGNED_IN } from './route-samples';
import { apiToken, baseUrl, launch, openPage, screenshot, waitForHash } from './support';
import { brokenWords, outOfCells } from './text-fit';

// Every screen of the route table fits a 1280 × 800 and a 1440 × 900 window in all five
// languages: the page never scrolls sideways, no table needs a sideways scroll of its own, no
// menu label is cut, no word is split across two lines and no badge leaves its table cell.
// One browser, one signed-in page per language: each screen is loaded once and judged at
// both widths (the window resized between), which halves the loads.

const LOCALES = ['en-US', 'zh-CN', 'zh-TW', 'ja-JP', 'ko-KR'] as const;
const FIRST = { width: 1280, height: 800 };
const VIEWPORTS = [FIRST, { width: 1440, height: 900 }];
/** Views a route shows under a parameter: the station list as a table. */
const EXTRA_PATHS = ['/station?view=table'];

let browser: Browser;
let samples: Record<string, string>;

beforeAll(async () => {
  browser = await launch();
  samples = await sampleParams();
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(context: TestContext, locale: string, viewport: (typeof VIEWPORTS)[number]): Promise<Page> {
  const token = await apiToken();
  const { page, browserContext } = await openPage(browser, context, locale, viewport);
  await browserContext.addInitScript((value) => {
    if (!window.localStorage.getItem('helio-token')) {
      window.localStorage.setItem('helio-token', value);
    }
  }, token);
  await page.goto(`${baseUrl()}/#/monitor`);
  // five profiles load the bundle at once (and install the worker): the start may take a while
  await waitForHash(page, '/monitor', 60_000);
  // and the menu a while to be drawn
  await page.locator('.arco-menu-item').first().waitFor({ timeout: 60_000 });
  return page;
}

/** What overflows sideways: the page, and any element that scrolls sideways on its own. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (el: Element) => {
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).filter(Boolean).slice(0, 2).join('.') : '';
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`;
    };
    const found: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    const width = root.clientWidth;
    if (root.scrollWidth > width) {
      const wide = Array.from(document.body.querySelectorAll('*'))
        .filter((el) => el.getBoundingClientRect().right > width + 1 && (el as HTMLElement).offsetParent !== null)
        .slice(-3)
        .map((el) => `${name(el)} (right ${Math.round(el.getBoundingClientRect().right)})`);
      found.push(`page ${root.scrollWidth} > ${width}: ${wide.join(', ')}`);
    }
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const style = getComputedStyle(el);
      if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        found.push(`${name(el)} scrolls ${el.scrollWidth} > ${el.clientWidth}`);
      }
    }
    return found;
  });
}

/** Menu labels (items and group titles) cut by their box. */
async function cutLabels(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.arco-menu-item, .arco-menu-item-inner, .arco-menu-inline-header'))
      .filter((el) => (el as HTMLElement).offsetParent !== null && el.scrollWidth > el.clientWidth)
      .map((el) => `${el.textContent?.trim()} (${el.scrollWidth} > ${el.clientWidth})`),
  );
}

/** What is wrong with the screen as drawn now. */
async function problemsOf(page: Page): Promise<string[]> {
  return [
    ...(await overflow(page)),
    ...(await brokenWords(page)).map((word) => `broken word ${word}`),
    ...(await outOfCells(page)).map((badge) => `out of its cell: ${badge}`),
  ];
}

// Each language has its own browser profile and only reads: the five run side by side.
describe.concurrent('every screen fits, with whole words', () => {
  for (const locale of LOCALES) {
    it(`in ${locale} at ${VIEWPORTS.map((v) => v.width).join(' and ')} px`, async (context) => {
      const { expect } = context;
      const page = await signedIn(context, locale, FIRST);
      const problems = new Map<string, string[]>();
      const note = (where: string, found: string[]) => {
        if (found.length > 0) {
          problems.set(where, found);
        }
      };
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await settle(page);
        note(`menu at ${viewport.width} px`, await cutLabels(page));
      }
      expect(await page.locator('.arco-menu-item').count()).toBeGreaterThan(10);
      const paths = [...SIGNED_IN.map((route) => [route.name, concretePath(route, samples)]), ...EXTRA_PATHS.map((path) => [path, path])];
      for (const [name, path] of paths as [string, string][]) {
        await page.setViewportSize(FIRST);
        await page.evaluate((target) => {
          window.location.hash = `#${target}`;
        }, path);
        await waitForHash(page, path);
        for (const viewport of VIEWPORTS) {
          if (viewport !== FIRST) {
            await page.setViewportSize(viewport);
          }
          // a page with live figures never stops changing: layout is judged once it has
          // drawn (or redrawn at the new width), not after the 15 s an axe sweep may wait
          await settle(page, 4_000);
          const found = await problemsOf(page);
          if (found.length > 0) {
            note(`${path} at ${viewport.width} px`, found);
            await screenshot(page, `layout-${locale}-${viewport.width}-${name.replace(/\W+/g, '-')}`);
          }
        }
      }
      const report = Array.from(problems, ([where, list]) => `${where}:\n  ${list.join('\n  ')}`).join('\n');
      expect(problems.size, `layout (${locale}):\n${report}`).toBe(0);
    }, 600_000);
  }
});
