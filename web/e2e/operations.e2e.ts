import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { api, apiToken, baseUrl, type CallInit, DEMO_PASSWORD, launch, openPage, screenshot, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

type Locale = 'zh-CN' | 'en-US';

const TEXT = {
  'en-US': {
    username: 'Username',
    password: 'Password',
    workOrders: 'Work order',
    alarmDrawer: (id: number) => `Alarm ${id}`,
    fromAlarm: 'Open a work order',
    viewOrder: 'View work order',
    orderLink: (number: string) => `Work order ${number}`,
    alarmLink: (id: number) => `Alarm ${id}`,
    form: (id: number) => `Work order for alarm ${id}`,
    processor: 'Processor',
    create: 'Open order',
    accept: 'Accept',
    start: 'Start work',
    finish: 'Finish',
    comment: 'Comment (required)',
    commentRequired: 'Say why: a comment is required',
    list: 'Work orders',
    finished: 'Finished',
    history: 'History',
    planTotal: 'Year plan (kWh)',
    spread: 'Spread over the months',
    approver: 'Approver',
    submitPlan: 'Submit for approval',
    inApproval: 'In approval',
    approve: (name: string) => `Approve the plan of ${name}`,
    approved: 'Plan approved: it now counts on the monitor',
    sum: (kwh: string) => `Year total: ${kwh} kWh`,
    finishedPlan: 'Finished',
    yearCompletion: 'Year to date',
    station: 'Station',
  },
  'zh-CN': {
    username: '用户名',
    password: '密码',
    workOrders: '工单管理',
    alarmDrawer: (id: number) => `告警 ${id}`,
    fromAlarm: '创建工单',
    viewOrder: '查看工单',
    orderLink: (number: string) => `工单 ${number}`,
    alarmLink: (id: number) => `告警 ${id}`,
    form: (id: number) => `为告警 ${id} 创建工单`,
    processor: '处理人',
    create: '创建工单',
    accept: '接单',
    start: '开始处理',
    finish: '完成',
    comment: '说明（必填）',
    commentRequired: '请填写说明（必填）',
    list: '工单列表',
    finished: '已完成',
    history: '处理记录',
    planTotal: '年度计划 (kWh)',
    spread: '按月分配',
    approver: '审批人',
    submitPlan: '提交审批',
    inApproval: '审批中',
    approve: (name: string) => `批准 ${name} 的计划`,
    approved: '计划已批准，已计入监控中心',
    sum: (kwh: string) => `全年合计：${kwh} kWh`,
    finishedPlan: '已完成',
    yearCompletion: '年初至今完成率',
    station: '电站',
  },
} as const;

/** The API in English unless the call names a language. */
function call<T>(path: string, token: string, init: CallInit = {}): Promise<T> {
  return api<T>(path, token, { lang: 'en-US', ...init });
}

const taken = new Set<number>();
const tripped = new Set<number>();

/** An occurring alarm the operator sees that has no open work order yet (each journey its own). */
async function freshAlarm(token: string): Promise<number> {
  for (let attempt = 0; attempt < 90; attempt += 1) {
    const alarms = await call<{ list: { id: number }[] }>('/v2/warn/listbysite?alarmStatus=1&pageSize=100', token);
    for (const alarm of alarms.list) {
      if (taken.has(alarm.id)) {
        continue;
      }
      const orders = await call<{ list: { status: number }[] }>(`/v2/workorder/list?alarmId=${alarm.id}&pageSize=50`, token);
      if (orders.list.every((order) => order.status > 3)) {
        taken.add(alarm.id);
        return alarm.id;
      }
    }
    if (attempt % 30 === 0) {
      // None open: trip an inverter the operator sees; the simulator raises the alarm shortly.
      const admin = await apiToken('admin');
      const devices = await call<{ list: { id: number; lastSeen: string | null }[] }>('/v2/dev/listbytype?type=inverter&pageSize=50', token);
      for (const device of devices.list.filter((d) => d.lastSeen && !tripped.has(d.id))) {
        tripped.add(device.id);
        try {
          await call('/v2/demo/fault', admin, { method: 'POST', body: { deviceId: device.id, kind: 'inverter_trip', minutes: 30 } });
          break;
        } catch {
          // not simulated: the next one
        }
      }
    }
    await new Promise((wait) => setTimeout(wait, 2_000));
  }
  throw new Error('no occurring alarm without an open work order');
}

/** A summary tile's figure. */
async function tile(page: Page, key: string): Promise<number> {
  return Number(await page.locator(`[data-testid="wo-summary"] [data-key="${key}"] dd`).textContent());
}

async function act(page: Page, drawer: Locator, name: string, comment?: { label: string; required: string }) {
  await drawer.getByRole('group').getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name, exact: true });
  await dialog.waitFor();
  if (comment) {
    await dialog.getByRole('button', { name, exact: true }).click();
    await dialog.getByRole('alert').filter({ hasText: comment.required }).waitFor();
    await dialog.getByRole('textbox', { name: comment.label }).fill('Replaced the fan and reset the inverter');
  }
  await dialog.getByRole('button', { name, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

async function workOrderJourney(context: TestContext, locale: Locale) {
  const text = TEXT[locale];
  const { page, browserContext } = await openPage(browser, context, locale);
  await page.goto(`${baseUrl()}/#/login?redirect=workOrder`);
  await page.getByLabel(text.username).fill('operator');
  await page.getByLabel(text.password).fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await waitForHash(page, '/operations/workorder');
  await page.locator('[data-testid="wo-summary"]').waitFor();
  const pendingBefore = await tile(page, 's1');
  const finishedBefore = await tile(page, 's4');

  // From an alarm: its drawer offers the order.
  const token = (await page.evaluate(() => window.localStorage.getItem('helio-token')))!;
  const alarmId = await freshAlarm(token);
  await page.goto(`${baseUrl()}/#/alarm?detail=${alarmId}`);
  const alarmDrawer = page.getByRole('dialog', { name: text.alarmDrawer(alarmId) });
  await alarmDrawer.getByRole('button', { name: text.fromAlarm }).click();
  await waitForHash(page, new RegExp(`/operations/workorder\\?new=1&alarmId=${alarmId}`));
  const form = page.getByRole('dialog', { name: text.form(alarmId) });
  await form.waitFor();
  // The operator takes it on: pick them as the processor.
  await form.getByRole('combobox', { name: text.processor }).click();
  await page.getByRole('option', { name: 'Oscar Operator' }).click();
  await screenshot(page, `workorder-form-${locale}`);
  await form.getByRole('button', { name: text.create, exact: true }).click();
  await form.waitFor({ state: 'hidden' });

  const drawer = page.getByRole('dialog', { name: /^(Work order|工单) WO-/ });
  await drawer.waitFor();
  await expect.poll(() => tile(page, 's1'), { timeout: 10_000 }).toBe(pendingBefore + 1);
  const number = /WO-[\d-]+/.exec((await drawer.getAttribute('aria-label')) ?? '')![0];

  // The order knows its alarm: the device, its serial number, a link back, and the alarm's
  // description as its title in the reader's language.
  const alarm = await call<{ deviceName: string; deviceSn: string; description: string }>(`/v2/warn/detail/${alarmId}`, token, {
    lang: locale,
  });
  await expect.poll(() => drawer.getByRole('heading', { level: 2 }).textContent()).toBe(alarm.description);
  await drawer.getByText(alarm.deviceSn, { exact: true }).waitFor();
  await drawer.getByRole('link', { name: text.alarmLink(alarmId) }).waitFor();

  // The alarm knows its order, in another tab: "View work order" instead of opening another.
  const watcher = await browserContext.newPage();
  watcher.setDefaultTimeout(20_000);
  await watcher.goto(`${baseUrl()}/#/alarm?detail=${alarmId}`);
  const watched = watcher.getByRole('dialog', { name: text.alarmDrawer(alarmId) });
  await watched.getByRole('button', { name: text.viewOrder }).waitFor();
  expect(await watched.getByRole('button', { name: text.fromAlarm }).count()).toBe(0);
  const entry = watched.getByRole('listitem').filter({ has: watcher.getByRole('link', { name: text.orderLink(number) }) });
  await entry.getByText(alarm.description).waitFor();
  await screenshot(watcher, `alarm-order-open-${locale}`);

  await act(page, drawer, text.accept);
  await act(page, drawer, text.start);
  await act(page, drawer, text.finish, { label: text.comment, required: text.commentRequired });
  await drawer.getByText(text.finished, { exact: true }).first().waitFor();
  await drawer.getByRole('list', { name: text.history }).getByText('Replaced the fan and reset the inverter').waitFor();
  await expect.poll(() => tile(page, 's4'), { timeout: 10_000 }).toBe(finishedBefore + 1);
  await expect.poll(() => tile(page, 's1'), { timeout: 10_000 }).toBe(pendingBefore);

  // The other tab shows the order finished without a reload (pushed), and offers a new order.
  await entry.getByText(text.finished, { exact: true }).waitFor({ timeout: 10_000 });
  await watched.getByRole('button', { name: text.fromAlarm }).waitFor();
  await screenshot(watcher, `alarm-with-order-${locale}`);
  // and the link leads to the order
  await entry.getByRole('link', { name: text.orderLink(number) }).click();
  await watcher.getByRole('dialog', { name: new RegExp(number) }).getByRole('link', { name: text.alarmLink(alarmId) }).waitFor();
  await watcher.close();
  await screenshot(page, `workorder-detail-${locale}`);
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  await page.getByRole('table', { name: text.list }).waitFor();
  await screenshot(page, `workorder-list-${locale}`);
}

/** Signs in and lands on the plan screen (the login redirect names a route). */
async function signIn(page: Page, locale: Locale, user: string) {
  const text = TEXT[locale];
  await page.goto(`${baseUrl()}/#/login?redirect=plan`);
  await page.getByLabel(text.username).fill(user);
  await page.getByLabel(text.password).fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !window.location.hash.startsWith('#/login'), undefined, { timeout: 30_000 });
  if (!page.url().includes('/operations/plan')) {
    await page.goto(`${baseUrl()}/#/operations/plan`);
  }
  await waitForHash(page, '/operations/plan');
}

interface PlanYear {
  completion: number;
  completionToDate: number;
  stations: { stationId: number; name: string }[];
}

/** The operator plans a year for one of their stations, the administrator approves it, the monitor counts it. */
async function planJourney(context: TestContext, locale: Locale, stationIndex: number) {
  const text = TEXT[locale];
  const year = new Date().getFullYear();
  const { page } = await openPage(browser, context, locale);
  await signIn(page, locale, 'operator');
  const token = (await page.evaluate(() => window.localStorage.getItem('helio-token')))!;
  const before = await call<PlanYear>(`/v2/plan/list?year=${year}`, token);
  const station = before.stations[stationIndex]!;
  await page.goto(`${baseUrl()}/#/operations/plan?stationId=${station.stationId}&year=${year}`);
  // A small plan of its own (a rerun on the same data finds the last one approved): whatever
  // the station made so far exceeds it, so the completion moves.
  const total = String(10_000 + (Date.now() % 5_000));
  await page.getByLabel(text.planTotal, { exact: true }).first().fill(total);
  await page.getByRole('button', { name: text.spread }).click();
  // the editor keeps what was typed (a proposal arriving meanwhile once reset it)
  expect(await page.getByLabel(text.planTotal, { exact: true }).first().inputValue()).toBe(total);
  // the months were the plan in force before the spread: wait until they add up to the new total
  await page.getByText(text.sum(Number(total).toLocaleString('en-US'))).waitFor();
  await page.getByRole('combobox', { name: text.approver }).click();
  await page.getByRole('option', { name: 'Ada Admin' }).click();
  await page.getByRole('button', { name: text.submitPlan }).click();
  await page.getByText(text.inApproval).first().waitFor();
  await screenshot(page, `plan-editor-${locale}`);

  // Another user approves.
  const admin = await openPage(browser, context, locale);
  await signIn(admin.page, locale, 'admin');
  const name = `${station.name} ${year}`;
  await admin.page.getByRole('button', { name: text.approve(name) }).click();
  // the server has answered the approval once the console says so
  await admin.page.getByText(text.approved).first().waitFor();
  await admin.page.getByRole('table', { name: /./ }).last().waitFor();
  await expect.poll(async () => (await call<PlanYear>(`/v2/plan/list?year=${year}`, token)).completion, { timeout: 30_000 }).not.toBe(before.completion);
  await screenshot(admin.page, `plan-approved-${locale}`);

  // The operator's monitor shows the new completion.
  const after = await call<PlanYear>(`/v2/plan/list?year=${year}`, token);
  await page.goto(`${baseUrl()}/#/monitor`);
  const caption = page.getByText(text.yearCompletion);
  await caption.waitFor();
  // the year so far against the plan so far; the whole year's completion on hover
  const shown = Number(/([\d.,]+)\s*%/.exec((await caption.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
  expect(Math.abs(shown - after.completionToDate)).toBeLessThan(0.11);
  const whole = Number(/([\d.,]+)\s*%/.exec((await caption.getAttribute('title')) ?? '')?.[1]?.replace(/,/g, ''));
  expect(Math.abs(whole - after.completion)).toBeLessThan(0.11);
  await screenshot(page, `plan-monitor-${locale}`);
}

describe('operations', () => {
  it('builds a yearly plan, has it approved and sees the completion on the monitor (zh-CN)', async (context) => {
    await planJourney(context, 'zh-CN', 0);
  }, 240_000);

  it('builds a yearly plan, has it approved and sees the completion on the monitor (en-US)', async (context) => {
    await planJourney(context, 'en-US', 1);
  }, 240_000);

  it('opens a work order from an alarm and takes it to finished (zh-CN)', async (context) => {
    await workOrderJourney(context, 'zh-CN');
  }, 240_000);

  it('opens a work order from an alarm and takes it to finished (en-US)', async (context) => {
    await workOrderJourney(context, 'en-US');
  }, 240_000);
});
