import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { type ModbusDevice, startModbusDevice, sunspecInverter } from './modbus-device';
import { apiPost, baseUrl, createPlant, DEMO_PASSWORD, launch, openPage, screenshot, signIn, waitForHash } from './support';

let browser: Browser;
let device: ModbusDevice;
let token = '';
let stationId = 0;
let deviceId = 0;

const call = <T>(path: string, body: unknown) => apiPost<T>(path, body, token);

beforeAll(async () => {
  browser = await launch();
  // 12 kW, 5 MWh: a three-phase SunSpec inverter on a real Modbus TCP socket.
  device = await startModbusDevice(sunspecInverter(12000, 5_000_000));
  token = (await call<{ token: string }>('/v2/login', { username: 'admin', password: DEMO_PASSWORD })).token;
  const stamp = Date.now().toString(36).toUpperCase();
  ({ stationId, deviceId } = await createPlant(token, {
    station: `Modbus Field Plant ${stamp}`,
    address: '2 Field Road',
    sn: `MB-${stamp}`,
    device: 'Modbus inverter',
  }));
});

afterAll(async () => {
  await device?.close();
  await browser?.close();
});

async function signedIn(context: TestContext, locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark'): Promise<Page> {
  const { page, browserContext } = await openPage(browser, context, locale);
  if (theme === 'dark') {
    await browserContext.addInitScript(() => {
      if (!window.localStorage.getItem('helio-settings')) {
        window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
      }
    });
  }
  await page.goto(`${baseUrl()}/#/login?redirect=debug`);
  if (locale === 'en-US') {
    await signIn(page);
  } else {
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
  }
  await waitForHash(page, '/debug');
  return page;
}

describe('field devices over Modbus TCP', () => {
  it('connects a SunSpec inverter from the debugging page, reads it live and shows its samples on the monitor (en-US, light)', async (context) => {
    const page = await signedIn(context, 'en-US', 'light');
    await page.goto(`${baseUrl()}/#/debug?device=${deviceId}`);
    await page.getByRole('heading', { level: 1, name: 'Remote debugging' }).waitFor();
    const connection = page.getByRole('region', { name: 'Field connection' });
    await connection.getByText('This device is not read over Modbus TCP').waitFor();

    await connection.getByRole('button', { name: 'Connect over Modbus' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Host or IP address').fill('127.0.0.1');
    await dialog.getByLabel('Port').fill(String(device.port));
    await dialog.getByLabel('Poll interval (s)').fill('2');
    await dialog.getByLabel('Timeout (ms)').fill('1000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Connection saved; polling starts now').first().waitFor();

    await connection.getByText('Online', { exact: true }).waitFor({ timeout: 30_000 });
    await connection.getByText('Helio · E2E-103 · E2E0001').waitFor();
    await connection.getByText('40000 · 1, 103').waitFor();
    const registers = page.getByRole('region', { name: 'Live registers' });
    const power = registers.getByRole('row').filter({ hasText: '103 · W' }).first();
    await power.getByText('12000 W').waitFor();
    await power.getByText('0x2EE0').waitFor();
    await registers.getByRole('row').filter({ hasText: '103 · WH' }).first().getByText('5000000 Wh').waitFor();
    await screenshot(page, 'field-debug-light-en-US');

    // The samples went through the write path: the station's live figures follow them.
    await page.goto(`${baseUrl()}/#/station/detail/${stationId}`);
    const overview = page.getByRole('region', { name: 'Overview' });
    await expect
      .poll(async () => (await overview.textContent()) ?? '', { timeout: 45_000, interval: 1_000 })
      .toMatch(/12(\.0+)? kW/);
    expect(await overview.textContent()).toContain('1 / 1');
    await screenshot(page, 'field-station-light-en-US');
    expect(device.requests()).toBeGreaterThan(5);
  });

  it('shows the device and the register maps in Chinese, dark', async (context) => {
    const page = await signedIn(context, 'zh-CN', 'dark');
    await page.goto(`${baseUrl()}/#/debug?device=${deviceId}`);
    await page.getByRole('heading', { level: 1, name: '远程调试' }).waitFor();
    await page.getByRole('region', { name: '现场接入' }).getByText('在线', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: '实时寄存器' }).getByText('12000 W').waitFor();
    await screenshot(page, 'field-debug-dark-zh-CN');
    await page.getByRole('tab', { name: '寄存器点表' }).click();
    await page.getByText('暂无点表：请导入点表文件').waitFor();
    await screenshot(page, 'field-maps-dark-zh-CN');
  });
});
