import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, openPage, screenshot, signIn, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

interface StationOption {
  id: number;
  parentId: number;
  name: string;
}

/** One call of the API made by the page with its own session (the console's stored token). */
async function call<T>(page: Page, path: string): Promise<{ status: number; body: T; text: string }> {
  return page.evaluate(async (p) => {
    const token = window.localStorage.getItem('helio-token') ?? '';
    const response = await fetch(p, { headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en-US' } });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, body: body as never, text };
  }, path);
}

async function data<T>(page: Page, path: string): Promise<T> {
  const r = await call<{ code: number; data: T }>(page, path);
  expect(r.status, `${path}: ${r.text}`).toBe(200);
  return r.body.data;
}

describe('organisation', () => {
  it('an administrator grants a new department two stations; its new user sees exactly those, and is signed out at once when disabled', async (context) => {
    const stamp = Date.now().toString(36);
    const deptName = `North crew ${stamp}`;
    const username = `north.${stamp}`;
    const password = `North#${stamp}9A`;

    // The administrator builds the department and the user through the screens.
    const { page: admin } = await openPage(browser, context, 'en-US');
    await admin.goto(`${baseUrl()}/#/login`);
    await signIn(admin);
    await waitForHash(admin, /^\/monitor/);
    const all = await data<StationOption[]>(admin, '/v2/site/simplelist');
    const tops = all.filter((s) => !s.parentId);
    expect(tops.length).toBeGreaterThanOrEqual(6);
    const granted = [tops[4]!, tops[5]!];
    const grantedIds = new Set(granted.map((s) => s.id));
    const visibleIds = new Set(all.filter((s) => grantedIds.has(s.id) || grantedIds.has(s.parentId)).map((s) => s.id));

    await admin.goto(`${baseUrl()}/#/permission`);
    await admin.getByRole('button', { name: 'Add department' }).click();
    const deptDialog = admin.getByRole('dialog');
    await deptDialog.getByLabel('Department name').fill(deptName);
    await deptDialog.getByRole('combobox', { name: 'Stations authorised to the department' }).click();
    for (const station of granted) {
      await admin.getByRole('option', { name: station.name, exact: true }).click();
    }
    await deptDialog.getByText('Department name').first().click(); // closes the options
    await screenshot(admin, 'organisation-dept-dialog');
    await deptDialog.getByRole('button', { name: 'Save' }).click();
    await deptDialog.waitFor({ state: 'detached' });
    const node = admin.getByTestId(`dept-${deptName}`);
    await node.waitFor();
    expect(await node.textContent()).toContain('stations granted: 2');
    await node.click();

    await admin.getByRole('button', { name: 'Add user' }).click();
    const userDialog = admin.getByRole('dialog');
    await userDialog.getByLabel('Username').fill(username);
    await userDialog.getByLabel('Password', { exact: true }).fill('weak');
    await userDialog.getByLabel('Real name').fill('Nora North');
    await userDialog.getByLabel('Email').fill('nora@example.com');
    await userDialog.getByLabel('Phone').fill('+1 555 0100');
    await userDialog.getByRole('button', { name: 'Save' }).click();
    await userDialog.getByText(/Longer than 6 characters/).first().waitFor();
    await screenshot(admin, 'organisation-user-form-rules');
    await userDialog.getByLabel('Password', { exact: true }).fill(password);
    await userDialog.getByRole('button', { name: 'Save' }).click();
    await userDialog.waitFor({ state: 'detached' });
    const row = admin.getByRole('row').filter({ hasText: username });
    await row.waitFor();
    // at 1440 px the authority column sits in the row's details
    await row.getByRole('button', { name: 'Show details' }).click();
    await admin.getByText('Stations authorised to own unit').first().waitFor();
    await screenshot(admin, 'organisation-users');

    // The new user signs in and sees exactly the two stations, everywhere.
    const { page: user } = await openPage(browser, context, 'en-US');
    await user.goto(`${baseUrl()}/#/login`);
    await signIn(user, username, password);
    await waitForHash(user, /^\/monitor/);
    const list = await data<{ total: number; list: { id: number; name: string }[] }>(user, '/v2/site/list?pageSize=100');
    expect(new Set(list.list.map((s) => s.id))).toEqual(grantedIds);
    const simple = await data<StationOption[]>(user, '/v2/site/simplelist');
    expect(new Set(simple.map((s) => s.id))).toEqual(visibleIds);
    const summary = await data<{ stations: number }>(user, '/v2/summary/all');
    expect(summary.stations).toBe(2);
    const alarms = await data<{ list: { stationId: number }[] }>(user, '/v2/warn/listbysite?pageSize=200');
    for (const alarm of alarms.list) {
      expect(visibleIds.has(alarm.stationId), `alarm of station ${alarm.stationId}`).toBe(true);
    }
    const csv = await call<unknown>(user, '/v2/site/export?format=csv');
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split(/\r?\n/).slice(1);
    expect(lines.length).toBe(2);
    for (const station of granted) {
      expect(csv.text).toContain(station.name);
    }
    const other = tops.find((s) => !grantedIds.has(s.id))!;
    expect((await call(user, `/v2/site/detail/${other.id}`)).status).toBe(404);

    await user.goto(`${baseUrl()}/#/station`);
    for (const station of granted) {
      await user.getByText(station.name, { exact: true }).first().waitFor();
    }
    expect(await user.getByText(other.name, { exact: true }).count()).toBe(0);
    await screenshot(user, 'organisation-user-stations');
    // The station screen's live connection is open (the bell follows the push).
    await user.waitForFunction(() => document.querySelector('[data-status="open"]') !== null, undefined, { timeout: 20_000 }).catch(() => undefined);

    // The administrator disables the user: the user's open console says so at once, through
    // the push. On an idle machine that takes well under a second; the bound here is the one
    // no poll of this screen could meet (its shortest is a minute), so a loaded machine running
    // the rest of make test beside this does not fail it.
    await row.getByRole('button', { name: `Disable ${username}` }).click();
    const confirm = admin.getByRole('dialog');
    const disabled = admin.waitForResponse((r) => r.url().includes('/v2/org/user/validdisable/'));
    await confirm.getByRole('button', { name: 'Disable' }).click();
    expect((await disabled).status()).toBe(200);
    const started = Date.now();
    await user.getByText('Confirm logout').waitFor({ timeout: 10_000 });
    console.log(`[perf] disabled user told in ${Date.now() - started} ms`);
    await screenshot(user, 'organisation-confirm-logout');
    expect((await call(user, '/v2/site/list')).status).toBe(401);
    await row.getByText('Disabled').waitFor();
  });

  it('a user edits their settings: profile rules, a cropped PNG avatar in the navbar, configuration kept on the server', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await page.goto(`${baseUrl()}/#/login`);
    await signIn(page, 'auditor');
    await waitForHash(page, /^\/monitor/);
    await page.goto(`${baseUrl()}/#/user/settings`);
    await page.getByLabel('Country/region').fill('');
    await page.getByLabel('Personal profile').fill('x'.repeat(10));
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByText('Required').first().waitFor();
    await page.getByLabel('Country/region').fill('China');
    await page.getByLabel('Area').fill('Shanghai');
    await page.getByLabel('Personal profile').fill('Checks the fleet figures every morning.');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByText('Saved').first().waitFor();
    await screenshot(page, 'user-settings-basic');

    // A 300×200 PNG drawn by the page, cropped to a square and stored re-encoded.
    const png = await page.evaluate(() => {
      const c = document.createElement('canvas');
      c.width = 300;
      c.height = 200;
      const ctx = c.getContext('2d')!;
      ctx.fillStyle = '#165DFF';
      ctx.fillRect(0, 0, 300, 200);
      ctx.fillStyle = '#FFB400';
      ctx.beginPath();
      ctx.arc(150, 100, 60, 0, Math.PI * 2);
      ctx.fill();
      return c.toDataURL('image/png').split(',')[1]!;
    });
    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    const crop = page.getByRole('dialog');
    await crop.getByText('Crop the avatar').waitFor();
    // the preview shows the chosen square of the picture (the yellow disc at its centre)
    await page.waitForFunction(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[role=dialog] canvas');
      const pixel = canvas?.getContext('2d')?.getImageData(120, 120, 1, 1).data;
      return pixel !== undefined && pixel[3] === 255 && (pixel[0] ?? 0) > 200 && (pixel[1] ?? 0) > 150;
    });
    await screenshot(page, 'user-settings-avatar-crop');
    await crop.getByRole('button', { name: 'Save' }).click();
    await crop.waitFor({ state: 'detached' });
    const navbarAvatar = page.locator('header img[src*="/v2/user/avatar/"], nav img[src*="/v2/user/avatar/"]').first();
    await navbarAvatar.waitFor();
    const served = await call<unknown>(page, (await navbarAvatar.getAttribute('src'))!);
    expect(served.status).toBe(200);

    await page.getByRole('tab', { name: 'Configuration' }).click();
    await page.getByRole('tabpanel').getByText('Dark', { exact: true }).click();
    await page.waitForFunction(() => document.body.getAttribute('arco-theme') === 'dark');
    await expect
      .poll(async () => JSON.stringify((await data<{ settings: unknown }>(page, '/v2/user/settings')).settings), { timeout: 5_000 })
      .toContain('"theme":"dark"');
    await screenshot(page, 'user-settings-configuration-dark');

    // The configuration follows the user to a fresh browser (Chinese, the default, before sign-in).
    const { page: again } = await openPage(browser, context, { browser: 'fr-FR' });
    await again.goto(`${baseUrl()}/#/login`);
    await again.getByLabel('用户名').fill('auditor');
    await again.getByLabel('密码').fill('helio-demo');
    await again.getByRole('button', { name: '登录' }).click();
    await waitForHash(again, /^\/monitor/);
    await again.waitForFunction(() => document.body.getAttribute('arco-theme') === 'dark');
    // the language chosen in the first browser (English) came along too
    await again.goto(`${baseUrl()}/#/user/settings?tab=security`);
    await again.getByText('Security question').first().waitFor();
    await screenshot(again, 'user-settings-security-dark');
  });

  it('an administrator sets the organisation\'s time zone, which every member\'s report schedule then proposes', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await page.goto(`${baseUrl()}/#/login`);
    await signIn(page);
    await waitForHash(page, /^\/monitor/);
    await page.goto(`${baseUrl()}/#/permission?tab=settings`);
    const form = page.getByRole('form', { name: 'Settings' });
    await form.waitFor();
    const name = form.getByRole('textbox', { name: 'Organisation name' });
    expect(await name.inputValue()).toBe('Helio Demo Energy');
    // a blank name is refused in the form and nothing is sent
    await name.fill('   ');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Required').waitFor();
    await name.fill('Helio Demo Energy');
    await form.getByRole('combobox', { name: 'Time zone' }).click();
    await page.keyboard.type('Europe/Madrid');
    await page.getByRole('option', { name: 'Europe/Madrid', exact: true }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Organisation settings saved').waitFor();
    expect((await data<{ timezone: string }>(page, '/v2/org/settings')).timezone).toBe('Europe/Madrid');
    await screenshot(page, 'organisation-settings-light-en-US');

    // a member's report schedule proposes the organisation's zone
    await page.goto(`${baseUrl()}/#/analysis?tab=reports`);
    await page.getByRole('form', { name: 'Report' }).waitFor();
    await page.getByRole('combobox', { name: 'Schedule' }).click();
    await page.getByRole('option', { name: 'Weekly' }).first().click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Time zone' }).textContent()).toContain('Europe/Madrid');

    // put the demo's zone back for the other journeys
    const restored = await page.evaluate(async () => {
      const token = window.localStorage.getItem('helio-token') ?? '';
      const r = await fetch('/v2/org/settings', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Helio Demo Energy', timezone: 'Asia/Shanghai' }),
      });
      return r.status;
    });
    expect(restored).toBe(200);
  });
});
