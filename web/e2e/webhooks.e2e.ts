import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, baseUrl, launch, screenshot, signedInPage } from './support';

// Webhooks through the console: the administrator adds one aimed at a receiver on
// 127.0.0.1, copies the signing secret shown once, sends a test delivery and finds it
// delivered in the log; the receiver checks the signature as a customer's system would.

interface Got {
  event: string;
  delivery: string;
  verified: boolean;
  body: Record<string, unknown>;
}

let browser: Browser;
let receiver: Server;
let secret = '';
const got: Got[] = [];

/** X-Helio-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, at most 5 minutes off. */
function verify(header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!secret || !parts.v1 || !Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const want = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const sig = Buffer.from(parts.v1, 'hex');
  return sig.length === want.length && timingSafeEqual(sig, want);
}

beforeAll(async () => {
  browser = await launch();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({
        event: String(req.headers['x-helio-event'] ?? ''),
        delivery: String(req.headers['x-helio-delivery'] ?? ''),
        verified: verify(String(req.headers['x-helio-signature'] ?? ''), body),
        body: JSON.parse(body) as Record<string, unknown>,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhooks', () => {
  it('adds a webhook, sends a signed test delivery and shows it in the log', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl()}/#/permission/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Add a webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('E2E receiver');
    // a wrong address is refused by the server, naming the field
    await dialog.getByLabel('Address', { exact: true }).fill('ftp://127.0.0.1/hook');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.getByText('Enter an http:// or https:// address without a user name').waitFor();
    const port = (receiver.address() as AddressInfo).port;
    await dialog.getByLabel('Address', { exact: true }).fill(`http://127.0.0.1:${port}/helio`);
    await dialog.getByRole('button', { name: 'OK' }).click();

    const shown = page.getByTestId('webhook-secret');
    await shown.waitFor();
    secret = (await shown.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    await screenshot(page, 'webhook-secret-en-US-light-1440');
    await page.getByRole('button', { name: 'I have copied it' }).click();

    const row = page.getByRole('row').filter({ hasText: 'E2E receiver' });
    await row.getByText('No delivery yet').waitFor();
    await row.getByRole('button', { name: 'Send test' }).click();
    await row.getByText('Delivered').waitFor({ timeout: 30_000 });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ event: 'test', verified: true, body: { event: 'test', language: 'en-US' } });
    expect(got[0]?.delivery).toMatch(/^hd_\d+$/);

    await row.getByRole('button', { name: 'Delivery log' }).click();
    const drawer = page.locator('.arco-drawer');
    await drawer.getByText(got[0]?.delivery ?? '').waitFor();
    await drawer.getByText('204').waitFor();
    await screenshot(page, 'webhook-log-en-US-light-1440');

    // the console's list says what the API says
    const list = await api<{ name: string; lastState: string }[]>('/v2/webhook/list', await apiToken());
    expect(list.find((w) => w.name === 'E2E receiver')?.lastState).toBe('sent');
  }, 120_000);

  it('shows the webhooks in zh-CN, dark, on a phone width too', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'zh-CN', theme: 'dark' });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl()}/#/permission/webhooks`);
      await page.getByRole('heading', { name: 'Webhook 推送', exact: true }).first().waitFor();
      // a table on a wide screen, a card each on a phone
      await page.getByRole(width < 768 ? 'listitem' : 'row').filter({ hasText: 'E2E receiver' }).first().waitFor();
      await screenshot(page, `webhooks-zh-CN-dark-${width}`);
    }
  }, 120_000);
});
