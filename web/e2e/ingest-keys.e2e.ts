import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { baseUrl, launch, openPage, screenshot, signIn, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  'en-US': { title: 'Ingest keys', issue: 'Issue key', collector: 'Collector key', sn: 'Collector serial number', ok: 'OK', copyNow: 'Copy the key now', done: 'I have stored it', revoke: 'Revoke' },
  'zh-CN': { title: '接入密钥', issue: '签发密钥', collector: '采集器密钥', sn: '采集器序列号', ok: '确定', copyNow: '请立即复制密钥', done: '我已保存', revoke: '吊销' },
} as const;

async function open(context: TestContext, locale: keyof typeof TEXT, theme: 'light' | 'dark'): Promise<Page> {
  const { page, browserContext } = await openPage(browser, context, 'en-US');
  if (theme === 'dark') {
    await browserContext.addInitScript(() => {
      window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
    });
  }
  await page.goto(`${baseUrl()}/#/login`);
  await signIn(page);
  await waitForHash(page, /^\/monitor/);
  if (locale !== 'en-US') {
    await page.evaluate((l) => window.localStorage.setItem('helio-locale', l), locale);
  }
  await page.goto(`${baseUrl()}/#/permission/ingest-keys`);
  await page.reload();
  return page;
}

async function journey(context: TestContext, locale: keyof typeof TEXT, theme: 'light' | 'dark') {
  const t = TEXT[locale];
  const page = await open(context, locale, theme);
  await page.getByRole('heading', { name: t.title, exact: true }).first().waitFor();
  await page.getByRole('button', { name: t.issue }).click();
  await page.locator('.arco-modal').getByText(t.collector, { exact: true }).click();
  const sn = `E2E-${locale}-${theme}`;
  await page.getByLabel(t.sn).fill(sn);
  await page.getByRole('button', { name: t.ok, exact: true }).click();
  await page.getByText(t.copyNow).waitFor();
  const key = await page.getByTestId('issued-key').textContent();
  expect(key).toMatch(/^hk_[A-Za-z0-9_-]{43}$/);
  await screenshot(page, `ingest-keys-shown-${locale}-${theme}`);
  await page.getByRole('button', { name: t.done }).click();
  await page.getByRole('cell', { name: sn }).waitFor();
  expect(await page.content()).not.toContain(key!);
  await screenshot(page, `ingest-keys-list-${locale}-${theme}`);
}

describe('ingest keys', () => {
  it('issues a collector key, shows it once and lists it by fingerprint (en-US, light)', (context) => journey(context, 'en-US', 'light'), 180_000);
  it('does the same in zh-CN, dark', (context) => journey(context, 'zh-CN', 'dark'), 180_000);
});
