import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { apiGet, apiToken, baseUrl, createPlant, launch, screenshot, signedInPage } from './support';

// History import from the operator's side: a vendor portal's CSV export of two days of
// 5-minute readings for one inverter, with one row whose time does not read, uploaded through
// the screen, previewed, dry run (the bad row named by its spreadsheet row number), imported
// and followed to its end.

interface Job {
  id: number;
  dry: boolean;
  state: string;
  progress: number;
  files: { name: string }[];
  report?: { rows?: number; stored?: number; rejectedRows?: number; rejects?: { row: number; reason: string }[] };
}

let browser: Browser;
let token = '';
let sn = '';
let fileName = '';
/** Spreadsheet row (header = 1) of the row whose time does not read. */
const BAD_ROW = 102;

beforeAll(async () => {
  browser = await launch();
  token = await apiToken();
  const stamp = Date.now().toString(36).toUpperCase();
  sn = `IMP-${stamp}`;
  await createPlant(token, { station: `Import Plant ${stamp}`, address: '5 Archive Road', sn, device: 'Archived inverter' });
  fileName = `portal-export-${stamp}.csv`;
});

afterAll(async () => {
  await browser?.close();
});

const pad = (n: number) => String(n).padStart(2, '0');

/** Two days of 5-minute rows ending 8 days ago: a midday power curve and a rising counter; one row's time is broken. */
function exportCsv(): string {
  const start = new Date();
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCDate(start.getUTCDate() - 10);
  const lines = ['Time,SN,AC Power (W),Energy (kWh)'];
  let counter = 1000;
  for (let i = 0; i < 2 * 288; i += 1) {
    const at = new Date(start.getTime() + i * 5 * 60_000);
    const hour = at.getUTCHours() + at.getUTCMinutes() / 60;
    const watts = hour > 6 && hour < 18 ? Math.round(15_000 * Math.sin(((hour - 6) / 12) * Math.PI)) : 0;
    counter += watts / 1000 / 12;
    const time = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
    lines.push(`${lines.length === BAD_ROW - 1 ? 'n/a' : time},${sn},${watts},${counter.toFixed(3)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A day of SMA Sunny Explorer's CSV export for one inverter, ending 5 days ago, as it writes
 * it: UTF-16 with a byte-order mark, the header of several rows, German times and decimal commas.
 */
function sunnyExport(serial: string): Buffer {
  const start = new Date();
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCDate(start.getUTCDate() - 6);
  const lines = [
    'sep=;',
    'Version CSV1|Tool SE|Linebreaks CR/LF|Delimiter semicolon|Decimalpoint comma|Precision 3',
    '',
    `;SN: ${serial};SN: ${serial}`,
    ';SB 4000TL-21;SB 4000TL-21',
    `;${serial};${serial}`,
    ';Gesamtertrag;Leistung',
    ';Counter;Analog',
    'dd.MM.yyyy HH:mm:ss;kWh;kW',
  ];
  let counter = 5000;
  for (let i = 0; i < 288; i += 1) {
    const at = new Date(start.getTime() + i * 5 * 60_000);
    const hour = at.getUTCHours() + at.getUTCMinutes() / 60;
    const kw = hour > 6 && hour < 18 ? 4 * Math.sin(((hour - 6) / 12) * Math.PI) : 0;
    counter += kw / 12;
    const time = `${pad(at.getUTCDate())}.${pad(at.getUTCMonth() + 1)}.${at.getUTCFullYear()} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:00`;
    lines.push(`${time};${counter.toFixed(3).replace('.', ',')};${kw.toFixed(3).replace('.', ',')}`);
  }
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf16le');
}

async function open(context: TestContext, locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark', width = 1440): Promise<Page> {
  const page = await signedInPage(browser, context, { locale, theme });
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${baseUrl()}/#/permission/import`);
  return page;
}

async function jobs(): Promise<Job[]> {
  return (await apiGet<Job[]>('/v2/import/job/list', token)).filter((j) => j.files.some((f) => f.name === fileName));
}

describe('history import', () => {
  it('uploads an export, previews it, dry runs it and imports it (en-US, light, 1440 and 390 px)', async (context) => {
    const page = await open(context, 'en-US', 'light');
    await page.getByRole('heading', { name: 'History import', exact: true }).waitFor();

    // upload through the screen's file input
    await page.locator('input[type="file"]').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(exportCsv()) });
    await page.getByRole('row').filter({ hasText: fileName }).waitFor();
    await page.getByRole('button', { name: `Preview ${fileName}` }).click();

    // the preview: time format, device column, the first rows
    await page.getByText('2006-01-02 15:04', { exact: true }).first().waitFor();
    const rows = page.getByRole('region', { name: 'First rows' });
    await rows.getByText(sn).first().waitFor();
    expect(await page.getByRole('combobox', { name: 'Device column' }).textContent()).toContain('SN');
    expect(await page.getByRole('combobox', { name: 'Sample field of AC Power (W)' }).textContent()).toContain('Active power');

    // the dry run names the bad row by its row number
    await page.getByRole('button', { name: 'Dry run', exact: true }).click();
    const report = page.getByLabel(/^Report of job \d+$/);
    await report.getByText(/^Dry run #\d+ · Done$/).waitFor({ timeout: 60_000 });
    const bad = report.getByRole('row').filter({ hasText: 'The time does not read in the format' });
    await bad.getByRole('cell', { name: String(BAD_ROW), exact: true }).waitFor();
    const [dry] = await jobs();
    expect(dry?.dry).toBe(true);
    expect(dry?.report?.rejectedRows).toBe(1);
    expect(dry?.report?.rejects).toEqual([expect.objectContaining({ row: BAD_ROW, reason: 'unparseable_time' })]);
    await screenshot(page, 'history-import-dry-run-en-US-light');

    // the import, followed to its end
    await page.getByRole('button', { name: 'Start import' }).click();
    await report.getByText(/^Import #\d+ · Done$/).waitFor({ timeout: 120_000 });
    const [done] = await jobs();
    expect(done?.dry).toBe(false);
    expect(done?.state).toBe('done');
    expect(done?.report?.rejectedRows).toBe(1);
    expect(done?.report?.stored).toBeGreaterThan(0);
    const bar = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: `#${done?.id}`, exact: true }) })
      .getByRole('progressbar');
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('100');
    await screenshot(page, 'history-import-done-en-US-light');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
    await screenshot(page, 'history-import-done-en-US-light-390');
  }, 300_000);

  it('shows the same screen in zh-CN, dark, at 1440 and 390 px', async (context) => {
    const page = await open(context, 'zh-CN', 'dark');
    await page.getByRole('heading', { name: '历史数据导入', exact: true }).waitFor();
    await page.getByRole('button', { name: `预览 ${fileName}` }).click();
    await page.getByRole('region', { name: '前几行' }).getByText(sn).first().waitFor();
    await page.getByRole('row').filter({ hasText: fileName }).getByText('已完成').first().waitFor();
    await screenshot(page, 'history-import-zh-CN-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: '任务', exact: true }).waitFor();
    await screenshot(page, 'history-import-zh-CN-dark-390');
  }, 180_000);

  it('reads a Sunny Explorer export with the shipped template (en-US light, zh-CN dark)', async (context) => {
    const stamp = Date.now().toString(36).toUpperCase();
    const serial = `21${Date.now() % 100_000_000}`;
    await createPlant(token, { station: `Sunny Plant ${stamp}`, address: '7 Export Lane', sn: serial, device: 'SMA inverter' });
    const name = `sunny-explorer-${stamp}.csv`;
    const page = await open(context, 'en-US', 'light');
    await page.getByRole('heading', { name: 'History import', exact: true }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: sunnyExport(serial) });
    await page.getByRole('row').filter({ hasText: name }).waitFor();
    await page.getByRole('button', { name: `Preview ${name}` }).click();
    const applied = page.getByText('Template applied', { exact: true });
    await applied.waitFor();
    expect(await applied.locator('xpath=following-sibling::dd[1]').textContent()).toBe('SMA Sunny Explorer, energy and power (CSV)');
    await page.getByRole('region', { name: 'First rows' }).getByText(serial).first().waitFor();
    await page.getByRole('button', { name: 'Dry run', exact: true }).click();
    const report = page.getByLabel(/^Report of job \d+$/);
    await report.getByText(/^Dry run #\d+ · Done$/).waitFor({ timeout: 60_000 });
    const [dry] = (await apiGet<Job[]>('/v2/import/job/list', token)).filter((j) => j.files.some((f) => f.name === name));
    expect(dry?.report?.rejectedRows ?? 0).toBe(0);
    expect(dry?.report?.stored).toBe(288);
    await screenshot(page, 'history-import-sunny-en-US-light');

    const zh = await open(context, 'zh-CN', 'dark');
    await zh.getByRole('button', { name: `预览 ${name}` }).click();
    await zh.getByText('已套用的模板', { exact: true }).waitFor();
    await zh.getByText('SMA Sunny Explorer：发电量与功率（CSV）', { exact: true }).waitFor();
    await screenshot(zh, 'history-import-sunny-zh-CN-dark');
  }, 180_000);
});
