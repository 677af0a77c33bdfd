import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { installAxe, seriousFindings, settle } from './axe';
import { concretePath, sampleParams, SIGNED_IN } from './route-samples';
import { apiToken, baseUrl, launch, openPage, screenshot, waitForHash } from './support';
import { brokenWords } from './text-fit';

// Every signed-in screen on a phone, 390 × 844 and 360 × 740, in English and Chinese, light and
// dark: the page never scrolls sideways, no table scrolls sideways inside its own box and no
// Arco table is drawn (a phone gets a table's rows as cards), and no label or figure is cut; the navbar's controls
// fit it; the menu button opens the menu as a drawer inside the screen, a menu entry moves to
// its page and closes it, Escape closes it; the alarm deal dialog and the work-order drawer
// open inside the screen with their first action in reach of a tap; axe-core finds nothing
// serious in the menu drawer, the alarm cards and the deal dialog at 390 px. One browser, one
// signed-in page per language and theme; each screen is loaded once and judged at both sizes
// (the window resized between).

const COMBOS = [
  { locale: 'en-US', theme: 'light' },
  { locale: 'zh-CN', theme: 'dark' },
  { locale: 'zh-CN', theme: 'light' },
  { locale: 'en-US', theme: 'dark' },
] as const;
const FIRST = { width: 390, height: 844 };
const VIEWPORTS = [FIRST, { width: 360, height: 740 }];
const EXTRA_PATHS = ['/station?view=table'];
/** The screens kept as pictures at 390 px in every language and theme, to be looked at (with the deal dialog and an order's detail). */
const SHOWN = ['monitor', 'alarm', 'workOrder', 'stationDetail'];

/** A text of the console in a language, from its locale files. */
function text(locale: string, file: string, key: string): string {
  const texts = JSON.parse(readFileSync(join(process.cwd(), 'src', file.replace('{locale}', locale)), 'utf8')) as Record<string, string>;
  const value = texts[key];
  if (!value) {
    throw new Error(`no text ${key} in ${file} (${locale})`);
  }
  return value;
}

/** A pattern for a text with one {{placeholder}}: the placeholder matches anything. */
function startingWith(template: string): RegExp {
  const [head] = template.split('{{');
  return new RegExp(`^${(head ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

let browser: Browser;
let samples: Record<string, string>;

beforeAll(async () => {
  browser = await launch();
  samples = await sampleParams();
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(context: TestContext, locale: string, theme: string): Promise<Page> {
  const token = await apiToken();
  const { page, browserContext } = await openPage(browser, context, locale, FIRST);
  await installAxe(browserContext);
  await browserContext.addInitScript(
    ({ token, theme }) => {
      if (!window.localStorage.getItem('helio-token')) {
        window.localStorage.setItem('helio-token', token);
        window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme }, version: 1 }));
      }
    },
    { token, theme },
  );
  // four profiles load the bundle and install the worker at once: the first load may take a while
  await page.goto(`${baseUrl()}/#/monitor`, { timeout: 60_000 });
  await waitForHash(page, '/monitor');
  await page.locator('header').first().waitFor({ timeout: 60_000 });
  return page;
}

/** The page's sideways scroll, with the elements that stick out past the right edge. */
async function sideways(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth <= window.innerWidth) {
      return null;
    }
    const name = (el: Element) => {
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).filter(Boolean).slice(0, 2).join('.') : '';
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`;
    };
    const wide = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && (el as HTMLElement).offsetParent !== null)
      .slice(0, 4)
      .map((el) => `${name(el)} (right ${Math.round(el.getBoundingClientRect().right)})`);
    return `page ${root.scrollWidth} > ${window.innerWidth}: ${wide.join(', ')}`;
  });
}

/**
 * Tables a phone should not get: one that scrolls sideways inside its own box (the page does not
 * scroll, but the columns past the edge are out of sight until swiped to), and any Arco table,
 * whose columns squeeze into the width until their cells are a word wide: a phone gets such rows
 * as cards (ListTable, CardTable), and plain tables stack.
 */
async function phoneTables(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...Array.from(document.querySelectorAll('main .arco-table'))
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .slice(0, 2)
      .map((el) => `an Arco table, not cards: ${el.querySelector('table')?.getAttribute('aria-label') ?? el.querySelector('th')?.textContent?.trim()}`),
    ...Array.from(document.querySelectorAll('main *'))
      .filter((el) => {
        const style = getComputedStyle(el);
        return (
          (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
          el.scrollWidth > el.clientWidth + 1 &&
          (el as HTMLElement).offsetParent !== null &&
          (el.tagName === 'TABLE' || el.querySelector('table') !== null)
        );
      })
      .slice(0, 4)
      .map((el) => {
        const table = el.tagName === 'TABLE' ? el : el.querySelector('table');
        const name = table?.getAttribute('aria-label') ?? table?.querySelector('th')?.textContent?.trim() ?? el.className;
        return `table scrolls sideways in its box: ${name} (${el.scrollWidth} > ${el.clientWidth})`;
      }),
  ]);
}

/** Labels and figures (of stat tiles, cards, facts) whose text is cut by their box. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('main dt, main dd'))
      .filter((el) => (el as HTMLElement).offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .slice(0, 4)
      .map((el) => `cut: ${el.textContent?.trim().slice(0, 40)} (${el.scrollWidth} > ${el.clientWidth})`),
  );
}

/** What is wrong with where a box is drawn: outside the window, or not what a tap in its middle hits. */
async function misplaced(what: string, target: Locator, tap = false): Promise<string[]> {
  const found = await target.evaluate(
    (el, tapped) => {
      const box = el.getBoundingClientRect();
      const problems: string[] = [];
      if (box.left < -1 || box.top < -1 || box.right > window.innerWidth + 1 || box.bottom > window.innerHeight + 1) {
        problems.push(`drawn at ${Math.round(box.left)},${Math.round(box.top)} to ${Math.round(box.right)},${Math.round(box.bottom)} in ${window.innerWidth} × ${window.innerHeight}`);
      }
      if (tapped) {
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (!hit || !el.contains(hit)) {
          problems.push(`a tap in its middle hits ${hit?.tagName.toLowerCase() ?? 'nothing'}`);
        }
        if (box.height < 44 - 0.5) {
          problems.push(`${Math.round(box.height)} px high, under a touch target's 44`);
        }
      }
      return problems;
    },
    tap,
  );
  return found.map((problem) => `${what}: ${problem}`);
}

/** axe-core's serious and critical findings (WCAG 2.1 A and AA) on what is drawn now. */
async function axeProblems(page: Page, what: string): Promise<string[]> {
  return (await seriousFindings(page)).map((finding) => `${what}: axe ${finding.rule} at ${finding.targets.join(", ")}: ${finding.summary}`);
}

/** The navbar's controls that do not fit it (a fixed bar cut at the edge adds no scroll to see them by). */
async function navbarOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('header');
    if (!header) {
      return ['no navbar'];
    }
    const bar = header.getBoundingClientRect();
    return Array.from(header.querySelectorAll('button, a'))
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.left < bar.left - 1 || box.right > Math.min(bar.right, window.innerWidth) + 1);
      })
      .map((el) => `navbar: ${el.getAttribute('aria-label') ?? el.textContent?.trim()} past the edge`);
  });
}

/** The menu button opens the menu drawer inside the window; Escape and a menu entry close it. */
async function checkMenu(page: Page, locale: string, axe: boolean): Promise<string[]> {
  const button = page.getByRole('button', { name: text(locale, 'locales/{locale}.json', 'menu.open'), exact: true });
  await button.click();
  const drawer = page.locator('.helio-menu-drawer');
  await drawer.waitFor();
  // the drawer slides in: judged where it comes to rest
  await page.waitForFunction(() => {
    const box = document.querySelector('.helio-menu-drawer')?.getBoundingClientRect();
    return box !== undefined && Math.abs(box.left) < 1;
  });
  const problems = await misplaced('menu drawer', drawer);
  if ((await button.getAttribute('aria-expanded')) !== 'true') {
    problems.push('the menu button does not say the menu is open');
  }
  if ((await drawer.locator('.arco-menu-item').count()) < 10) {
    problems.push('the menu drawer has fewer than ten entries');
  }
  if (axe) {
    problems.push(...(await axeProblems(page, 'menu drawer')));
  }
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  await button.click();
  await drawer.getByRole('menuitem', { name: text(locale, 'locales/{locale}.json', 'menu.alarm'), exact: true }).click();
  await waitForHash(page, /^\/alarm/);
  await drawer.waitFor({ state: 'detached' });
  return problems;
}

/** The deal dialog of the first alarm not dealt with: inside the window, Submit in reach. */
async function checkDeal(page: Page, locale: string, axe: boolean, shot: string): Promise<string[]> {
  await page.locator('ul[aria-label] li').first().waitFor();
  const problems = axe ? await axeProblems(page, 'alarm cards') : [];
  await page.getByRole('button', { name: startingWith(text(locale, 'features/alarm/locales/{locale}.json', 'alarm.action.dealOf')) }).first().click();
  const dialog = page.locator('.arco-modal');
  await dialog.waitFor();
  await page.waitForFunction(() => {
    const modal = document.querySelector('.arco-modal');
    return modal !== null && getComputedStyle(modal).transform === 'none' && getComputedStyle(modal).opacity === '1';
  });
  const submit = dialog.getByRole('button', { name: text(locale, 'features/alarm/locales/{locale}.json', 'alarm.deal.submit') });
  problems.push(...(await misplaced('deal dialog', dialog)), ...(await misplaced('deal dialog Submit', submit, true)));
  if (shot) {
    await screenshot(page, `${shot}-alarm-deal`);
  }
  if (axe) {
    problems.push(...(await axeProblems(page, 'deal dialog')));
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return problems;
}

/** The first work order's drawer: inside the window, its first action in reach. */
async function checkWorkOrder(page: Page, locale: string, shot: string): Promise<string[]> {
  await page.locator('ul[aria-label] li').first().waitFor();
  await page.getByRole('button', { name: startingWith(text(locale, 'features/operations/locales/{locale}.json', 'ops.wo.openNamed')) }).first().click();
  const drawer = page.locator('.arco-drawer');
  await drawer.waitFor();
  const action = drawer.locator('.arco-drawer-content .arco-btn').first();
  await action.waitFor();
  await page.waitForFunction(() => {
    const box = document.querySelector('.arco-drawer')?.getBoundingClientRect();
    return box !== undefined && Math.abs(box.left) < 1;
  });
  await action.scrollIntoViewIfNeeded();
  const problems = [...(await misplaced('work-order drawer', drawer)), ...(await misplaced('work-order drawer action', action, true))];
  if (shot) {
    await drawer.getByTestId('checklist-item').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    await screenshot(page, `${shot}-order-detail`);
  }
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  return problems;
}

describe.concurrent('every screen fits a phone', () => {
  for (const { locale, theme } of COMBOS) {
    it(`in ${locale}, ${theme}, at ${VIEWPORTS.map((v) => `${v.width} × ${v.height}`).join(' and ')}`, async (context) => {
      const { expect } = context;
      const page = await signedIn(context, locale, theme);
      const problems = new Map<string, string[]>();
      const note = (where: string, found: string[]) => {
        if (found.length > 0) {
          problems.set(where, found);
        }
      };
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.evaluate(() => {
          window.location.hash = '#/monitor';
        });
        await waitForHash(page, '/monitor');
        note(`navbar at ${viewport.width} px`, await navbarOverflow(page));
        note(`menu at ${viewport.width} px`, await checkMenu(page, locale, viewport === FIRST));
        await page.evaluate(() => {
          window.location.hash = '#/alarm';
        });
        const shot = viewport === FIRST ? `phone-${locale}-${theme}-${viewport.width}` : '';
        note(`alarm deal at ${viewport.width} px`, await checkDeal(page, locale, viewport === FIRST, shot));
        await page.evaluate(() => {
          window.location.hash = '#/operations/workorder';
        });
        note(`work order at ${viewport.width} px`, await checkWorkOrder(page, locale, shot));
      }
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
          await settle(page, 4_000);
          const found = [
            await sideways(page),
            ...(await phoneTables(page)),
            ...(await clipped(page)),
            ...(await brokenWords(page)).map((word) => `broken word ${word}`),
          ].filter((problem): problem is string => problem !== null);
          if (found.length > 0) {
            note(`${path} at ${viewport.width} px`, found);
          }
          if (found.length > 0 || (viewport === FIRST && SHOWN.includes(name))) {
            await screenshot(page, `phone-${locale}-${theme}-${viewport.width}-${name.replace(/\W+/g, '-')}`);
          }
        }
      }
      const report = Array.from(problems, ([where, list]) => `${where}:\n  ${list.join('\n  ')}`).join('\n');
      expect(problems.size, `phone layout (${locale}, ${theme}):\n${report}`).toBe(0);
    }, 600_000);
  }
});
