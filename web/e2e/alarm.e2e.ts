import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { api, apiToken, baseUrl, DEMO_PASSWORD, launch, openPage, SCREENSHOTS, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

type Locale = 'zh-CN' | 'en-US';

/** The texts the journey looks for, in both languages it runs in. */
const TEXT = {
  'en-US': {
    username: 'Username',
    password: 'Password',
    signIn: 'Sign in',
    alarm: 'Alarm',
    bell: /^Message centre, \d+ unread, \d+ alarms to process$/,
    centre: 'Message centre',
    unread: 'Unread',
    unprocessed: 'Unprocessed alarms',
    live: 'Live',
    openAlarm: /^Open alarm: /,
    detailsOf: (id: number) => `Details of alarm ${id}`,
    showDetails: 'Show details',
    drawer: (id: number) => `Alarm ${id}`,
    deal: 'Deal',
    dealDialog: 'Deal alarm',
    submit: 'Submit',
    reasonRequired: 'Reason is required',
    method: 'Remote reset',
    reason: 'Reason',
    dealt: 'Alarm dealt',
    processed: 'Processed',
    history: 'Deal history',
    close: 'Close',
    settingsTab: 'Notification settings',
    levelsRequired: 'Choose at least one level',
    save: 'Save',
    levels: ['Signal change', 'Alarm', 'Fault'],
    list: 'Alarm list',
    today: "Today's alarms",
    export: 'Export CSV',
  },
  'zh-CN': {
    username: '用户名',
    password: '密码',
    signIn: '登录',
    alarm: '告警',
    bell: /^消息中心，\d+ 条未读，\d+ 条告警待处理$/,
    centre: '消息中心',
    unread: '未读',
    unprocessed: '未处理告警',
    live: '实时',
    openAlarm: /^打开告警：/,
    detailsOf: (id: number) => `告警 ${id} 的详情`,
    showDetails: '展开详情',
    drawer: (id: number) => `告警 ${id}`,
    deal: '处理',
    dealDialog: '处理告警',
    submit: '提交',
    reasonRequired: '请填写处理原因',
    method: '远程复位',
    reason: '处理原因',
    dealt: '告警已处理',
    processed: '已处理',
    history: '处理记录',
    close: '关闭',
    settingsTab: '通知设置',
    levelsRequired: '请至少选择一个告警级别',
    save: '保存',
    levels: ['信号变位', '告警', '故障'],
    list: '告警列表',
    today: '今日告警',
    export: '导出 CSV',
  },
} as const;

/**
 * A picture of the window. Not the full page: resizing the window to a long page's height makes
 * the shell lay itself out again (the menu folds), which is not what a user sees.
 */
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

interface Device {
  id: number;
  name: string;
  sn: string;
  /** The latest sample's time; null for a device that never reported. */
  lastSeen: string | null;
  stationName: string;
}

interface AlarmRow {
  id: number;
  deviceId: number;
  rule: string;
  alarmStatus: number;
  dealStatus: number;
}

const taken = new Set<number>();

/**
 * Trips an inverter the operator sees: a simulated one (it reports data; a device another suite
 * added by hand has no simulator behind it) with no inverter fault open yet. Each journey takes
 * its own.
 */
async function tripInverter(operatorToken: string, adminToken: string): Promise<Device> {
  const devices = await api<{ list: Device[] }>('/v2/dev/listbytype?type=inverter&pageSize=200', operatorToken);
  for (const device of devices.list) {
    if (taken.has(device.id) || !device.lastSeen) {
      continue;
    }
    const open = await api<{ list: AlarmRow[] }>(
      `/v2/warn/listbydev?deviceId=${device.id}&rule=inverter_fault&alarmStatus=1`,
      operatorToken,
    );
    if (open.list.length > 0) {
      continue;
    }
    taken.add(device.id);
    try {
      await api('/v2/demo/fault', adminToken, {
        method: 'POST',
        body: { deviceId: device.id, kind: 'inverter_trip', minutes: 30 },
      });
      return device;
    } catch {
      // not a simulated device after all: the next one
    }
  }
  throw new Error('no simulated inverter without an open inverter fault');
}

/** The bell's unread count, from its accessible name. */
async function unreadOnBell(page: Page, locale: Locale): Promise<number> {
  const bell = page.getByRole('button', { name: TEXT[locale].bell });
  const name = (await bell.getAttribute('aria-label')) ?? '';
  return Number(/\d+/.exec(name)?.[0] ?? NaN);
}

async function openCentre(page: Page, locale: Locale): Promise<Locator> {
  const centre = page.getByRole('dialog', { name: TEXT[locale].centre });
  if (!(await centre.isVisible())) {
    await page.getByRole('button', { name: TEXT[locale].bell }).click();
  }
  await centre.waitFor();
  return centre;
}

async function closeCentre(page: Page, locale: Locale): Promise<void> {
  const centre = page.getByRole('dialog', { name: TEXT[locale].centre });
  if (await centre.isVisible()) {
    await page.keyboard.press('Escape');
    await centre.waitFor({ state: 'hidden' });
  }
}

/** Clicks a radio button or checkbox: Arco hides the input, its label takes the click. */
async function clickLabel(input: Locator): Promise<void> {
  await input.locator('xpath=ancestor::label[1]').click();
}

/** A counter of the message centre: a live status named by its label, ending with the number. */
async function counter(centre: Locator, name: string): Promise<number> {
  const text = (await centre.getByRole('status', { name, exact: true }).textContent()) ?? '';
  return Number(/(\d+)$/.exec(text)?.[1] ?? NaN);
}

async function signInAsOperator(context: TestContext, locale: Locale, theme: 'light' | 'dark'): Promise<Page> {
  const { page, browserContext } = await openPage(browser, context, locale);
  if (theme === 'dark') {
    await browserContext.addInitScript(() => {
      if (!window.localStorage.getItem('helio-settings')) {
        window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
      }
    });
  }
  await page.goto(`${baseUrl()}/#/login?redirect=alarm`);
  const text = TEXT[locale];
  await page.getByLabel(text.username).fill('operator');
  await page.getByLabel(text.password).fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await waitForHash(page, '/alarm');
  await page.getByRole('heading', { name: text.alarm, exact: true, level: 1 }).waitFor();
  return page;
}

async function faultJourney(context: TestContext, locale: Locale, theme: 'light' | 'dark') {
  const text = TEXT[locale];
  const page = await signInAsOperator(context, locale, theme);
  await page.getByRole('table', { name: text.list }).or(page.getByText(/No alarms|没有符合/)).first().waitFor();
  await page.getByRole('region', { name: text.today }).waitFor();
  // The push is connected: the message centre says so.
  let centre = await openCentre(page, locale);
  await centre.getByText(text.live, { exact: true }).waitFor();
  const unprocessedBefore = await counter(centre, text.unprocessed);
  await closeCentre(page, locale);
  const unreadBefore = await unreadOnBell(page, locale);
  // Marks the document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  const operatorToken = (await page.evaluate(() => window.localStorage.getItem('helio-token')))!;
  const device = await tripInverter(operatorToken, await apiToken('admin'));

  // Within about a minute (a simulator step every 10 s), the alarm reaches the bell and the list.
  await page.waitForFunction(
    ({ before, pattern }) => {
      const bell = Array.from(document.querySelectorAll('button[aria-label]')).find((button) =>
        new RegExp(pattern).test(button.getAttribute('aria-label') ?? ''),
      );
      return Number(/\d+/.exec(bell?.getAttribute('aria-label') ?? '')?.[0] ?? 0) > before;
    },
    { before: unreadBefore, pattern: text.bell.source },
    { timeout: 90_000, polling: 500 },
  );
  let alarm: AlarmRow | undefined;
  for (let i = 0; i < 30 && !alarm; i += 1) {
    const open = await api<{ list: AlarmRow[] }>(
      `/v2/warn/listbydev?deviceId=${device.id}&rule=inverter_fault&alarmStatus=1`,
      operatorToken,
    );
    alarm = open.list[0];
    if (!alarm) {
      await new Promise((wait) => setTimeout(wait, 1_000));
    }
  }
  expect(alarm, 'the injected fault opened an alarm').toBeDefined();
  const alarmId = alarm!.id;
  await page.getByRole('button', { name: text.detailsOf(alarmId), exact: true }).waitFor({ timeout: 30_000 });
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: text.detailsOf(alarmId), exact: true }) });
  // the device column sits in the row's details at 1440 px
  await row.getByRole('button', { name: text.showDetails }).click();
  expect(await row.locator('xpath=following-sibling::tr[1]').textContent()).toContain(device.name);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await shot(page, `alarm-list-${theme}-${locale}`);

  // Export: the filtered list as a CSV file, fetched with the bearer header.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: text.export }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  });
  expect(csv).toContain(device.sn);

  // The message is listed in the bell; it leads to the alarm.
  centre = await openCentre(page, locale);
  const unprocessedWithAlarm = await counter(centre, text.unprocessed);
  expect(unprocessedWithAlarm).toBeGreaterThan(unprocessedBefore);
  // The message names the station and the device (inverter names repeat across stations).
  const message = centre
    .getByRole('button', { name: text.openAlarm })
    .filter({ hasText: `${device.stationName} · ${device.name}` })
    .first();
  await message.waitFor();
  await shot(page, `alarm-bell-${theme}-${locale}`);
  await message.click();
  await waitForHash(page, `/alarm?detail=${alarmId}`);
  const drawer = page.getByRole('dialog', { name: text.drawer(alarmId) });
  await drawer.waitFor();
  await drawer.getByText(device.sn, { exact: true }).waitFor();

  // Deal it: an empty reason is refused first.
  await drawer.getByRole('button', { name: text.deal, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: text.dealDialog });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: text.submit }).click();
  await dialog.getByText(text.reasonRequired).waitFor();
  await shot(page, `alarm-deal-${theme}-${locale}`);
  await clickLabel(dialog.getByRole('radio', { name: text.method }));
  await expect.poll(() => dialog.getByRole('radio', { name: text.method }).isChecked()).toBe(true);
  await dialog.getByRole('textbox', { name: text.reason }).fill(`Reset remotely (${locale})`);
  await dialog.getByRole('button', { name: text.submit }).click();
  await page.getByText(text.dealt).first().waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await drawer.getByRole('list', { name: text.history }).getByText(`Reset remotely (${locale})`).waitFor();
  await drawer.getByText(text.processed, { exact: true }).first().waitFor();
  await shot(page, `alarm-detail-${theme}-${locale}`);

  // The unprocessed counter drops, still without a reload.
  await drawer.getByRole('button', { name: text.close, exact: true }).click();
  await drawer.waitFor({ state: 'hidden' });
  await openCentre(page, locale);
  await page.waitForFunction(
    ({ name, before }) => {
      const status = Array.from(document.querySelectorAll('[role="status"][aria-labelledby]')).find(
        (node) => document.getElementById(node.getAttribute('aria-labelledby')!)?.textContent === name,
      );
      const count = /(\d+)$/.exec(status?.textContent ?? '')?.[1];
      return count !== undefined && Number(count) < before;
    },
    { name: text.unprocessed, before: unprocessedWithAlarm },
    { timeout: 30_000, polling: 500 },
  );
  await closeCentre(page, locale);
  const dealtRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: text.detailsOf(alarmId), exact: true }) });
  await dealtRow.getByText(text.processed, { exact: true }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
}

describe('alarms, live', () => {
  it('brings an injected fault to the operator\'s bell and list without a reload, and deals it (zh-CN, light)', async (context) => {
    await faultJourney(context, 'zh-CN', 'light');
  }, 240_000);

  it('brings an injected fault to the operator\'s bell and list without a reload, and deals it (en-US, dark)', async (context) => {
    await faultJourney(context, 'en-US', 'dark');
  }, 240_000);
});

describe('notification settings', () => {
  it('requires at least one level before saving', async (context) => {
    const page = await signInAsOperator(context, 'en-US', 'light');
    const text = TEXT['en-US'];
    await page.getByRole('tab', { name: text.settingsTab }).click();
    await waitForHash(page, '/alarm?tab=settings');
    const levels = page.getByRole('group', { name: 'Levels to notify' });
    await levels.getByRole('checkbox', { name: text.levels[1] }).waitFor({ state: 'attached' });
    for (const level of text.levels) {
      const box = levels.getByRole('checkbox', { name: level });
      if (await box.isChecked()) {
        await clickLabel(box);
      }
    }
    await page.getByRole('button', { name: text.save, exact: true }).click();
    await page.getByText(text.levelsRequired).waitFor();
    await shot(page, 'alarm-settings-light-en-US');
  });

  it('gives e-mail a daily limit of its own, counted apart from in-site (zh-CN, dark)', async (context) => {
    const page = await signInAsOperator(context, 'zh-CN', 'dark');
    await page.getByRole('tab', { name: TEXT['zh-CN'].settingsTab }).click();
    await waitForHash(page, '/alarm?tab=settings');
    const methods = page.getByRole('group', { name: '通知方式' });
    const email = methods.getByRole('checkbox', { name: '邮件' });
    await email.waitFor({ state: 'attached' });
    if (!(await email.isChecked())) {
      await clickLabel(email);
    }
    // the e-mail limit appears with its method, and the day is counted per method
    const limit = page.getByLabel('邮件每日上限');
    await limit.fill('3');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByText('通知设置已保存').first().waitFor();
    const saved = await api<{ emailLimit: number; methods: number[]; today: { methods: { method: number; limit: number }[] } }>(
      '/v2/warn/notify/settings',
      await apiToken('operator'),
    );
    expect(saved.emailLimit).toBe(3);
    expect(saved.methods).toContain(3);
    expect(saved.today.methods.find((m) => m.method === 3)?.limit).toBe(3);
    await page.getByTestId('notify-today').getByText(/邮件：已发送 \d+\/3/).waitFor();
    await shot(page, 'alarm-settings-dark-zh-CN');
  });
});
