import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { baseUrl, DEMO_PASSWORD, launch, openPage, SCREENSHOTS, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/** A picture of the window (the shell keeps its layout, unlike a full-page shot). */
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

async function signIn(context: TestContext, locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const { page, browserContext } = await openPage(browser, context, locale);
  if (theme === 'dark') {
    await browserContext.addInitScript(() => {
      if (!window.localStorage.getItem('helio-settings')) {
        window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
      }
    });
  }
  await page.goto(`${baseUrl()}/#/login?redirect=analysis`);
  await page.getByLabel(locale === 'en-US' ? 'Username' : '用户名').fill('admin');
  await page.getByLabel(locale === 'en-US' ? 'Password' : '密码').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await waitForHash(page, '/analysis');
  return page;
}

async function bytesOf(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function choose(page: Page, combobox: string, option: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Makes a report from the form and downloads it once the list says it is ready. */
async function makeReport(page: Page, language: string, format: string): Promise<{ name: string; body: Buffer }> {
  await choose(page, 'Export language', language);
  await choose(page, 'Format', format);
  const records = page.getByRole('table', { name: 'My reports' });
  const before = await records.locator('tbody tr').count().catch(() => 0);
  await page.getByRole('button', { name: 'Make report' }).click();
  // the new record renders in the background; the list follows its progress
  const row = page.locator('tr[data-record]').first();
  await page.waitForFunction((n) => document.querySelectorAll('tr[data-record]').length > n, before);
  await row.and(page.locator('[data-status="done"]')).waitFor({ timeout: 90_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /^Download / }).click()]);
  return { name: download.suggestedFilename(), body: await bytesOf(download) };
}

describe('analysis', () => {
  it('shows the KPIs with their formulas, compares two stations, makes and downloads reports, and delivers a scheduled one', async (context) => {
    const page = await signIn(context, 'en-US');
    await page.getByRole('heading', { level: 1, name: 'Data analysis' }).waitFor();

    // Data overview: every KPI beside its formula
    const kpis = page.getByRole('list', { name: 'Key figures' });
    await kpis.waitFor();
    await expect.poll(() => kpis.locator('[data-kpi="pr"]').textContent()).toMatch(/IEC 61724: final ÷ reference yield = [\d,.]+ kWh ÷ [\d,.]+ kWh/);
    expect(await kpis.locator('[data-kpi]').count()).toBeGreaterThanOrEqual(10);
    await shot(page, 'analysis-overview-light-en-US');

    // The energy chart zooms by dragging across days, resets, and downloads as a PNG
    const energy = page.getByRole('img', { name: 'Energy, expected energy and PR' });
    await energy.scrollIntoViewIfNeeded();
    const box = (await energy.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const zoomed = page.locator('[data-zoom]');
    await expect.poll(() => zoomed.getAttribute('data-zoom')).toMatch(/^\d+-\d+$/);
    const [first, last] = (await zoomed.getAttribute('data-zoom'))!.split('-').map(Number);
    expect(last! - first!).toBeGreaterThanOrEqual(2);
    expect(last! - first!).toBeLessThan(20);
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PNG' }).first().click()]);
    expect(png.suggestedFilename()).toMatch(/^overview-\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.png$/);
    const picture = await bytesOf(png);
    expect([...picture.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await expect.poll(() => zoomed.count()).toBe(0);

    // One inverter of a station: its own figures, the site's shares named as not applying
    await choose(page, 'Fleet or station', 'Kern Valley Solar + Storage');
    await expect.poll(() => kpis.locator('[data-kpi="autarky"]').count()).toBe(1);
    await page.getByRole('combobox', { name: 'Device' }).click();
    await page.getByRole('option').filter({ hasNotText: 'Whole station' }).first().click();
    const notes = page.getByRole('note', { name: "About this device's figures" });
    await notes.waitFor();
    expect(await notes.textContent()).toContain('Not shown for a single inverter: Self-consumption, Autarky');
    await expect.poll(() => kpis.locator('[data-kpi="autarky"]').count()).toBe(0);
    await expect.poll(() => kpis.locator('[data-kpi="specificYield"]').textContent()).toMatch(/kWh ÷ kWp = [\d,.]+ ÷ [\d,.]+/);
    await shot(page, 'analysis-overview-device-light-en-US');

    // The station's battery and grid meter are offered too, grouped by type, found by name
    await page.getByRole('combobox', { name: 'Device' }).click();
    const groups = page.locator('.arco-select-group-title');
    await expect.poll(() => groups.allTextContents()).toEqual(['Inverter', 'Battery', 'Meter']);
    await page.keyboard.type('BESS');
    // the search runs on the server; the station's sub-stations each have a BESS-01, and each
    // option names its sub-station
    const options = () => page.getByRole('option').allTextContents();
    await expect.poll(options).toEqual(['Whole station', 'BESS-01 · Block Central', 'BESS-01 · Block North', 'BESS-01 · Block South']);
    const found = await options();
    await page.getByRole('option', { name: found[1] }).click();
    await expect.poll(() => kpis.locator('[data-kpi]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kpi')))).toEqual([
      'charged',
      'discharged',
      'roundTrip',
    ]);
    expect(Number((await kpis.locator('[data-kpi="charged"] p').nth(1).textContent())?.replace(/[^\d.]/g, ''))).toBeGreaterThan(0);
    expect(await kpis.locator('[data-kpi="roundTrip"]').textContent()).toMatch(/Discharged ÷ charged = [\d,.]+ ÷ [\d,.]+ kWh/);
    expect(await notes.textContent()).toContain('This device produces no PV energy');
    await shot(page, 'analysis-overview-battery-light-en-US');

    // Compare two stations over the month
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByRole('combobox', { name: 'Stations' }).click();
    await page.getByRole('option', { name: 'Golmud Desert PV Plant' }).click();
    await page.getByRole('option', { name: 'Kern Valley Solar + Storage' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const table = page.getByRole('table', { name: 'Comparison table' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('Golmud Desert PV Plant');
    expect(await rows.nth(1).textContent()).toContain('Kern Valley Solar + Storage');
    expect(Number((await rows.nth(0).locator('td').nth(1).textContent())?.replace(/,/g, ''))).toBeGreaterThan(0);
    await shot(page, 'analysis-compare-light-en-US');

    // Monthly reports in English and in Japanese, downloaded
    await page.getByRole('tab', { name: 'Reports' }).click();
    await page.getByRole('form', { name: 'Report' }).waitFor();
    const english = await makeReport(page, 'English', 'XLSX');
    expect(english.name).toMatch(/^report-\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(english.body.subarray(0, 2).toString()).toBe('PK');
    const japanese = await makeReport(page, 'Japanese', 'PDF');
    expect(japanese.name).toMatch(/\.pdf$/);
    expect(japanese.body.subarray(0, 5).toString()).toBe('%PDF-');
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(join(SCREENSHOTS, 'analysis-report-ja-JP.pdf'), japanese.body);
    await shot(page, 'analysis-reports-light-en-US');

    // A daily schedule, run now: the report arrives in the message centre with its link
    const name = `Daily digest ${Date.now()}`;
    await page.getByRole('textbox', { name: 'Template name' }).fill(name);
    await choose(page, 'Schedule', 'Daily (previous day)');
    await page.getByRole('button', { name: 'Save as template' }).click();
    await page.getByRole('button', { name: `Send ${name} now` }).click();
    const bell = page.getByRole('button', { name: /^Message centre, \d+ unread/ });
    await page.locator('tr[data-record][data-status="done"]', { hasText: name }).waitFor({ timeout: 90_000 });
    await bell.click();
    const centre = page.getByRole('dialog', { name: 'Message centre' });
    await centre.waitFor();
    await centre.getByRole('tab', { name: 'System' }).click();
    const message = centre.getByRole('list', { name: 'System' }).getByText(`Report ready: ${name}`);
    await message.waitFor({ timeout: 30_000 });
    // the link is a real download link (the bare address is no longer in the text), with its expiry
    const list = centre.getByRole('list', { name: 'System' });
    const download = list.getByRole('link', { name: `Download report: Report ready: ${name}` });
    const link = await download.getAttribute('href');
    expect(link).toMatch(/^\/v2\/report\/file\/[0-9a-f]{48}$/);
    expect(await list.textContent()).not.toContain('/v2/report/file/');
    expect(await list.textContent()).toMatch(/link works until \d{4}-\d{2}-\d{2}/);
    await shot(page, 'analysis-scheduled-message-en-US');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect((await bytesOf(file)).length).toBeGreaterThan(100);
    const again = await fetch(`${baseUrl()}${link}`);
    expect(again.status).toBe(200);
  });

  for (const [locale, theme] of [
    ['zh-CN', 'dark'],
    ['en-US', 'dark'],
    ['zh-CN', 'light'],
  ] as const) {
    it(`draws every tab in ${locale}, ${theme}`, async (context) => {
      const page = await signIn(context, locale, theme);
      const tabs = locale === 'zh-CN' ? ['数据概览', '对比分析', '报表'] : ['Data overview', 'Compare', 'Reports'];
      await page.getByRole('list', { name: locale === 'zh-CN' ? '关键指标' : 'Key figures' }).waitFor();
      await page.locator('[data-kpi="autarky"], [data-kpi="yield"]').first().waitFor();
      await shot(page, `analysis-overview-${theme}-${locale}`);
      for (const [i, tab] of tabs.slice(1).entries()) {
        await page.getByRole('tab', { name: tab }).click();
        await page.waitForTimeout(500);
        await shot(page, `analysis-${i === 0 ? 'compare' : 'reports'}-${theme}-${locale}`);
      }
    });
  }
});
