import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { baseUrl, launch, screenshot, signedInPage } from './support';

// The doors into Helio beside the ingest keys: MQTT mapping and vendor clouds, each in two
// languages and themes, on a desktop and a phone width.

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const SCREENS = [
  { path: '/permission/ingest-mqtt', name: 'ingest-mqtt', title: { 'en-US': 'MQTT mapping', 'zh-CN': 'MQTT 映射' } },
  { path: '/permission/cloud', name: 'cloud', title: { 'en-US': 'Vendor clouds', 'zh-CN': '厂商云接入' } },
] as const;

async function look(context: TestContext, locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark') {
  const page = await signedInPage(browser, context, { locale, theme });
  for (const s of SCREENS) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl()}/#${s.path}`);
      await page.getByRole('heading', { name: s.title[locale], exact: true }).first().waitFor();
      await page.locator('.arco-spin-loading').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await screenshot(page, `${s.name}-${locale}-${theme}-${width}`);
    }
  }
}

describe('ingest doors', () => {
  it('shows MQTT mapping and vendor clouds in en-US, light', (context) => look(context, 'en-US', 'light'), 120_000);
  it('shows them in zh-CN, dark', (context) => look(context, 'zh-CN', 'dark'), 120_000);
});

// The demo's SolarEdge account (served by the stand-in on 127.0.0.1): the administrator lists
// its sites and inverters, each offered for creation, and closes without confirming (the
// demo fleet the other browser tests count stays as it is).
describe('demo vendor cloud', () => {
  it('lists the demo account’s sites and inverters', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl()}/#/permission/cloud`);
    const row = page.getByRole('row').filter({ hasText: 'SolarEdge demo account' });
    await row.getByRole('button', { name: 'Sites and devices', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Weingut Sonnenhang').waitFor();
    await dialog.getByText('Agriturismo Collina').waitFor();
    for (const serial of ['7E1D0A11-01', '7E1D0A12-02', '7E1D0B21-03']) {
      await dialog.getByText(serial).first().waitFor();
    }
    await screenshot(page, 'cloud-discover-en-US-light-1440');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  }, 120_000);

  it('asks each vendor for its own credentials', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl()}/#/permission/cloud`);
    await page.getByRole('button', { name: 'Connect an account', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const pick = async (vendor: string) => {
      await dialog.getByRole('combobox', { name: 'Vendor' }).click();
      await page.getByRole('option', { name: vendor, exact: true }).click();
    };
    // SolarEdge (the default): one key
    await dialog.getByLabel('API key', { exact: true }).waitFor();
    await pick('iSolarCloud');
    for (const label of ['App key', 'Access key (x-access-key)', 'Account', 'Password', 'Gateway (empty: international)']) {
      await dialog.getByLabel(label, { exact: true }).waitFor();
    }
    await screenshot(page, 'cloud-add-isolarcloud-en-US-light-1440');
    await pick('FusionSolar');
    for (const label of ['User name (Northbound API account)', 'System code', 'Region host (empty: eu5.fusionsolar.huawei.com)']) {
      await dialog.getByLabel(label, { exact: true }).waitFor();
    }
    expect(await dialog.getByLabel('App key', { exact: true }).count()).toBe(0);
    await pick('Enphase');
    for (const label of ['API key', 'Client ID', 'Client secret', 'Refresh token']) {
      await dialog.getByLabel(label, { exact: true }).waitFor();
    }
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  }, 120_000);
});
