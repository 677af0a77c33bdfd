import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { apiGet, apiPost, apiToken, baseUrl, createPlant, launch, screenshot, signedInPage } from './support';

// Line protocol from the operator's side: a collector writes series Helio has no rule for,
// the screen lists them, the administrator maps one from the list and the next points land
// on the device.

let browser: Browser;
let token = '';
let deviceId = 0;
let sn = '';
let key = '';

beforeAll(async () => {
  browser = await launch();
  token = await apiToken();
  const stamp = Date.now().toString(36).toUpperCase();
  sn = `LP-${stamp}`;
  ({ deviceId } = await createPlant(token, { station: `Line Protocol Plant ${stamp}`, address: '3 Collector Road', sn, device: 'Telegraf inverter' }));
  key = (await apiPost<{ key: string }>('/v2/ingest/key/issue', { kind: 'device', deviceId }, token)).key;
});

afterAll(async () => {
  await browser?.close();
});

/** Writes line protocol as a collector does; the HTTP status. */
async function write(lines: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/v2/write?org=plant&bucket=helio&precision=ms`, {
    method: 'POST',
    headers: { Authorization: `Token ${key}`, 'Content-Type': 'text/plain; charset=utf-8' },
    body: lines,
  });
  return response.status;
}

async function open(context: TestContext, locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark', width = 1440): Promise<Page> {
  const page = await signedInPage(browser, context, { locale, theme });
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${baseUrl()}/#/permission/line-protocol`);
  return page;
}

describe('line protocol', () => {
  it('lists what arrived unmapped, maps it from the list and stores the next points (en-US, light)', async (context) => {
    expect(await write(`e2e_${sn},serial=${sn} watts=12000,fan=7i ${Date.now() - 60_000}`)).toBe(204);
    type Rules = { rules: { measurement: string; deviceTag: string; field: string; target: string; scale: number }[] };
    const before = (await apiGet<Rules>('/v2/ingest/line/rules', token)).rules;
    const n = before.length + 1; // the demo's rules, then the one mapped here
    const page = await open(context, 'en-US', 'light');
    await page.getByRole('heading', { name: 'Line protocol', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: `e2e_${sn}` }).filter({ hasText: 'watts' });
    await row.getByText('No rule for this field').waitFor();
    await screenshot(page, 'line-ingest-unmapped-en-US-light');

    await page.getByRole('button', { name: `Map e2e_${sn}.watts` }).click();
    await expect.poll(() => page.getByLabel(`Measurement ${n}`, { exact: true }).inputValue()).toBe(`e2e_${sn}`);
    expect(await page.getByLabel(`Device tag ${n}`, { exact: true }).inputValue()).toBe('serial');
    expect(await page.getByLabel(`Field ${n}`, { exact: true }).inputValue()).toBe('watts');
    await page.getByLabel(`Scale ${n}`, { exact: true }).fill('0.001');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText('Rules saved').waitFor();

    const saved = await apiGet<Rules>('/v2/ingest/line/rules', token);
    expect(saved.rules).toEqual([...before, { measurement: `e2e_${sn}`, deviceTag: 'serial', field: 'watts', target: 'powerKw', scale: 0.001 }]);

    expect(await write(`e2e_${sn},serial=${sn} watts=12000,fan=7i ${Date.now() - 30_000}`)).toBe(204);
    await expect
      .poll(async () => (await apiGet<{ latest?: { powerKw: number } }>(`/v2/dev/detail/${deviceId}`, token)).latest?.powerKw, { timeout: 30_000 })
      .toBe(12);
    // the field without a rule is still listed, now seen twice
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'fan' }).getByRole('cell', { name: '2', exact: true }).waitFor();
    await screenshot(page, 'line-ingest-mapped-en-US-light');
  }, 180_000);

  it('shows the same screen in zh-CN, dark, at 1440 and 390 px', async (context) => {
    const page = await open(context, 'zh-CN', 'dark');
    await page.getByRole('heading', { name: '行协议接入', exact: true }).waitFor();
    await page.getByRole('heading', { name: '未映射序列' }).waitFor();
    await page.getByText('该字段没有规则').first().waitFor();
    await screenshot(page, 'line-ingest-zh-CN-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: '映射规则' }).waitFor();
    await screenshot(page, 'line-ingest-zh-CN-dark-390');
  }, 180_000);
});
