import { deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { type Coverage as Link, coverageProxy } from './coverage';
import { api, apiToken, baseUrl, launch, screenshot, signedInPage, waitForHash } from './support';

// A crew member's phone without coverage (390 × 844, the console installed): the operator
// opens an order given to them, goes offline, accepts it, takes its checklist, starts it,
// checks in (with the phone's position), ticks and reads the items, photographs the cabinet,
// answers the photo item with it and finishes; reloads offline (the console opens from the
// worker's cache, the queue still there); goes online: every action reaches the server once,
// in order, and the order is finished. A second order moved by the administrator meanwhile
// shows the crew member the action the server refused.

let browser: Browser;
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

interface Detail {
  id: number;
  stationId: number;
  number: string;
  status: number;
  events: { action: string }[];
  checkIns: { kind: string; distanceM: number | null }[];
  attachments: { id: number; name: string }[];
  checklist: { name: string; missing: number; items: { key: string; done: boolean; value: number | null; attachmentId: number }[] } | null;
}

/** A small PNG, as a phone's camera would hand over (a real image the server's check accepts). */
function png(w: number, h: number): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((w * 3 + 1) * h, 0x80);
  for (let y = 0; y < h; y++) raw[y * (w * 3 + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function newOrder(admin: string, title: string): Promise<Detail> {
  const stations = await api<{ id: number; name: string }[]>('/v2/site/simplelist', await apiToken('operator'));
  const people = await api<{ users: { id: number; name: string }[] }>('/v2/workorder/people', admin);
  const operator = people.users.find((u) => u.name === 'Oscar Operator');
  const start = new Date(Date.now() - 3600_000).toISOString();
  const end = new Date(Date.now() + 3 * 3600_000).toISOString();
  return api<Detail>('/v2/workorder/add', admin, {
    body: { stationId: stations[0]!.id, title, priority: 3, plannedStart: start, plannedEnd: end, assigneeUserId: operator!.id },
  });
}

/** The operator's phone, its worker in control, with the order's drawer open (its detail kept). */
async function phone(context: TestContext, orderId: number): Promise<{ page: Page; ctx: BrowserContext; link: Link }> {
  const link = await coverageProxy(baseUrl());
  context.onTestFinished(() => link.close());
  const page = await signedInPage(browser, context, { user: 'operator', locale: 'en-US', theme: 'light' });
  const ctx = page.context();
  await ctx.grantPermissions(['geolocation']);
  await page.setViewportSize(PHONE);
  await page.goto(`${link.url}/#/operations/workorder?detail=${orderId}`);
  await waitForHash(page, /\/operations\/workorder/);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
  await page.getByRole('dialog').getByRole('button', { name: 'Accept', exact: true }).waitFor();
  // the checklist templates are read once online, as the drawer does
  await page.getByRole('dialog').getByRole('combobox', { name: 'Checklist template' }).waitFor({ state: 'attached' }).catch(() => {});
  return { page, ctx, link };
}

/**
 * Offline as a phone out of coverage is: the browser's own emulation (navigator.onLine, the
 * offline events) and a link that carries nothing (e2e/coverage.ts), so that no call reaches the
 * server meanwhile, whoever makes it.
 */
async function setOffline(ctx: BrowserContext, link: Link, offline: boolean): Promise<void> {
  if (offline) {
    link.setCovered(false);
    await ctx.setOffline(true);
  } else {
    // coverage first, then the phone notices: the queue sends on "online"
    link.setCovered(true);
    await ctx.setOffline(false);
  }
}

async function confirmAction(page: Page, name: string, comment = ''): Promise<void> {
  const drawer = page.getByRole('dialog').first();
  await drawer.getByRole('button', { name, exact: true }).click();
  const modal = page.getByRole('dialog', { name });
  if (comment) await modal.getByRole('textbox').fill(comment);
  await modal.getByRole('button', { name, exact: true }).click();
  await modal.waitFor({ state: 'hidden' });
}

describe('work orders offline', () => {
  it('accepts, checks in, fills the checklist, attaches a photo and finishes offline; each action reaches the server once', async (context) => {
    const admin = await apiToken();
    const order = await newOrder(admin, 'E2E offline inverter service');
    const here = await api<{ lat: number; lng: number }>(`/v2/site/detail/${order.stationId}`, admin);
    const { page, ctx, link } = await phone(context, order.id);
    await ctx.setGeolocation({ latitude: here.lat + 0.0009, longitude: here.lng }); // 100 m north of the station

    await setOffline(ctx, link, true);
    const drawer = page.getByRole('dialog').first();
    await confirmAction(page, 'Accept');
    await page.getByText('No network: the action is kept').first().waitFor();
    // the order now reads accepted: its checklist can be taken
    await drawer.getByRole('combobox', { name: 'Checklist template' }).click();
    await page.getByRole('option', { name: 'Inverter service' }).click();
    await drawer.getByRole('button', { name: 'Use this checklist' }).click();
    await drawer.getByText('Checklist: Inverter service').waitFor();
    await confirmAction(page, 'Start work');
    await drawer.getByRole('button', { name: 'Check in' }).click();
    await drawer.getByRole('button', { name: 'Check out' }).waitFor();
    for (const item of ['Isolate the inverter (AC and DC) and lock out *', 'Clean the air filters and fans *']) {
      await drawer.getByText(item, { exact: true }).click();
    }
    for (const [label, value] of [
      ['String 1 open-circuit voltage', '812'],
      ['Insulation resistance to earth', '2.5'],
    ] as const) {
      const row = drawer.getByTestId('checklist-item').filter({ hasText: label });
      await row.getByLabel(label, { exact: true }).fill(value);
      await row.getByRole('button', { name: 'Save' }).click();
    }
    await drawer.locator('input[type="file"]').setInputFiles({ name: 'cabinet.png', mimeType: 'image/png', buffer: png(2400, 1800) });
    await drawer.getByText('cabinet.png').first().waitFor();
    const photoRow = drawer.getByTestId('checklist-item').filter({ hasText: 'Photo of the open cabinet' });
    await photoRow.getByRole('combobox', { name: 'Photo of the open cabinet' }).click();
    await page.getByRole('option', { name: 'cabinet.png' }).click();
    await drawer.getByTestId('checklist-missing').getByText('Every required item is done').waitFor();
    await confirmAction(page, 'Finish', 'Filters cleaned, insulation checked');
    const queue = page.getByTestId('offline-queue').first();
    await queue.getByText(/1[0-9] actions wait to be sent/).waitFor();
    await screenshot(page, 'offline-orders-en-US-light-390');

    // reloaded offline: the console opens from the worker's cache, the queue and the order kept
    await page.reload();
    await page.getByTestId('offline-queue').first().getByText(/1[0-9] actions wait to be sent/).waitFor({ timeout: 60_000 });
    await page.getByRole('dialog').first().getByText('Every required item is done').waitFor();
    const before = await api<Detail>(`/v2/workorder/detail/${order.id}`, admin);
    // nothing reached the server yet (the order's history says who moved it, and when, if it did)
    expect(before.status, JSON.stringify((before as unknown as { events: unknown }).events)).toBe(1);

    // online again: everything is sent, once, in order
    await setOffline(ctx, link, false);
    await page.getByTestId('offline-queue').first().waitFor({ state: 'detached', timeout: 60_000 });
    const after = await api<Detail>(`/v2/workorder/detail/${order.id}`, admin);
    expect(after.status).toBe(4);
    expect(after.events.map((e) => e.action)).toEqual(['create', 'accept', 'start', 'finish']);
    expect(after.checkIns.map((c) => c.kind)).toEqual(['in']);
    expect(after.checkIns[0]!.distanceM).toBeGreaterThan(90);
    expect(after.checkIns[0]!.distanceM).toBeLessThan(110);
    expect(after.attachments).toHaveLength(1);
    const items = Object.fromEntries(after.checklist!.items.map((i) => [i.key, i]));
    expect(after.checklist!.missing).toBe(0);
    expect(items.voc!.value).toBe(812);
    expect(items.cabinet!.attachmentId).toBe(after.attachments[0]!.id); // the photo taken offline
  }, 240_000);

  it('shows the crew member an action the server refused because the order moved meanwhile', async (context) => {
    const admin = await apiToken();
    const order = await newOrder(admin, 'E2E offline conflict');
    const { page, ctx, link } = await phone(context, order.id);
    await setOffline(ctx, link, true);
    await confirmAction(page, 'Accept');
    // meanwhile the administrator rejects it
    await api(`/v2/workorder/transition/${order.id}`, admin, { body: { action: 'reject', comment: 'Duplicate of another order' } });
    await setOffline(ctx, link, false);
    const refused = page.getByRole('dialog').first().getByTestId('offline-refused');
    await refused.getByText(new RegExp(`${order.number}: accept was not applied`)).waitFor({ timeout: 60_000 });
    await screenshot(page, 'offline-refused-en-US-light-390');
    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await refused.waitFor({ state: 'detached' });
    const after = await api<Detail>(`/v2/workorder/detail/${order.id}`, admin);
    expect(after.status).toBe(5);
  }, 180_000);
});
