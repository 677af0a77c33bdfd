import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, baseUrl, DEMO_PASSWORD, launch, openPage, screenshot, waitForHash } from './support';

// The console with the keyboard alone: sign in, open an alarm, deal with it, switch the theme.
// No click anywhere; every step checks where the focus is and that it can be seen.

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/** Makes sure the operator has an alarm to deal with: trips a simulated inverter if none is open. */
async function ensureUnprocessedAlarm(): Promise<void> {
  const operator = await apiToken('operator');
  const open = await api<{ total: number }>('/v2/warn/listbysite?dealStatus=0&pageSize=1', operator);
  if (open.total > 0) {
    return;
  }
  const admin = await apiToken('admin');
  const devices = await api<{ list: { id: number; lastSeen: string | null }[] }>(
    '/v2/dev/listbytype?type=inverter&pageSize=50',
    operator,
  );
  const device = devices.list.find((item) => item.lastSeen);
  expect(device, 'a simulated inverter').toBeDefined();
  await api('/v2/demo/fault', admin, { body: { deviceId: device!.id, kind: 'inverter_trip', minutes: 30 } });
  await expect
    .poll(async () => (await api<{ total: number }>('/v2/warn/listbysite?dealStatus=0&pageSize=1', operator)).total, {
      timeout: 90_000,
      interval: 1_000,
    })
    .toBeGreaterThan(0);
}

/** What has the focus: role, accessible label or text, and whether a focus indicator is drawn. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) {
      return { name: '', role: '', tag: 'body', ring: false, inDialog: '' };
    }
    const style = getComputedStyle(element);
    const ring =
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
      (style.boxShadow !== 'none' && style.boxShadow !== '') ||
      element.matches('input, textarea');
    const dialog = element.closest('[role="dialog"]');
    return {
      name: (
        element.getAttribute('aria-label') ??
        (element as HTMLInputElement).labels?.[0]?.textContent ??
        element.textContent ??
        ''
      ).trim(),
      role: element.getAttribute('role') ?? '',
      tag: element.tagName.toLowerCase(),
      ring,
      inDialog: dialog?.getAttribute('aria-label') ?? dialog?.querySelector('.arco-modal-title, .arco-drawer-title')?.textContent ?? (dialog ? '?' : ''),
    };
  });
}

/** Presses Tab (or Shift+Tab) until the focused element's name matches; fails after limit presses. */
async function tabTo(page: Page, name: RegExp, { back = false, limit = 80 } = {}) {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (name.test(now.name)) {
      return now;
    }
  }
  throw new Error(`no focusable element named ${name} within ${limit} presses`);
}

describe('keyboard only', () => {
  it('signs in, opens an alarm, deals with it and switches the theme', async (context) => {
    await ensureUnprocessedAlarm();
    const { page } = await openPage(browser, context, 'en-US');
    await page.goto(`${baseUrl()}/#/login`);

    // Sign in: the username field has the focus on arrival.
    await page.getByLabel('Username').waitFor();
    expect((await focused(page)).tag).toBe('input');
    await page.keyboard.type('operator');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await waitForHash(page, '/monitor');

    // The first stop is the skip link, drawn when focused; it moves the focus to the page.
    // The sign-in page has a heading of its own, and may still be drawn when the address changes.
    await page.locator('#main-content h1').first().waitFor();
    await page.keyboard.press('Tab');
    const skip = await focused(page);
    expect(skip.name).toBe('Skip to content');
    expect(skip.ring).toBe(true);
    expect(await page.getByRole('link', { name: 'Skip to content' }).isVisible()).toBe(true);
    const box = await page.getByRole('link', { name: 'Skip to content' }).boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');

    // The menu: back to it with Shift+Tab, the alarm entry opens with Enter.
    const alarmEntry = await tabTo(page, /^Alarm$/, { back: true });
    expect(alarmEntry.role).toBe('menuitem');
    expect(alarmEntry.ring).toBe(true);
    await page.keyboard.press('Enter');
    await waitForHash(page, '/alarm');
    await page.getByRole('button', { name: /^Deal alarm \d+$/ }).first().waitFor();

    // Open an unprocessed alarm: its row has a Deal button; Details comes just before it.
    const deal = await tabTo(page, /^Deal alarm \d+$/);
    const id = Number(/\d+/.exec(deal.name)![0]);
    const details = await tabTo(page, new RegExp(`^Details of alarm ${id}$`), { back: true, limit: 3 });
    expect(details.ring).toBe(true);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: `Alarm ${id}` });
    await drawer.waitFor();
    await expect.poll(async () => (await focused(page)).inDialog).not.toBe('');

    // Deal with it in the dialog: the focus stays inside while it is open.
    await tabTo(page, /^Deal$/, { limit: 30 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Deal alarm' });
    await dialog.waitFor();
    await expect.poll(async () => (await focused(page)).inDialog).toBe('Deal alarm');
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.inDialog, `Tab ${i + 1} left the dialog for ${now.tag} "${now.name}"`).toBe('Deal alarm');
    }
    await screenshot(page, 'keyboard-deal-dialog-light-en-US');
    // The method: the first radio, chosen with Space; the reason typed in.
    await tabTo(page, /^Remote reset$/, { limit: 20 });
    await page.keyboard.press('Space');
    await expect.poll(() => dialog.getByRole('radio', { name: 'Remote reset' }).isChecked()).toBe(true);
    for (let i = 0; i < 10 && (await focused(page)).tag !== 'textarea'; i += 1) {
      await page.keyboard.press('Tab');
    }
    expect((await focused(page)).tag).toBe('textarea');
    await page.keyboard.type('Reset from the keyboard');
    await tabTo(page, /^Submit$/, { limit: 10 });
    await page.keyboard.press('Enter');
    await page.getByText('Alarm dealt').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await drawer.getByText('Reset from the keyboard').waitFor();

    // The focus returns to the drawer, then, with Escape, to the button that opened it.
    await expect.poll(async () => (await focused(page)).inDialog).not.toBe('');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await focused(page)).name).toBe(`Details of alarm ${id}`);

    // Switch the theme from the navbar.
    const themeButton = await tabTo(page, /^Switch to the dark theme$/, { back: true });
    expect(themeButton.ring).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.body.getAttribute('arco-theme'))).toBe('dark');
    const after = await focused(page);
    expect(after.name).toBe('Switch to the light theme');
    expect(after.ring).toBe(true);
    await screenshot(page, 'keyboard-theme-dark-en-US');
  }, 240_000);
});
