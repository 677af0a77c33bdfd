import { crc32, deflateSync, gzipSync } from 'node:zlib';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { apiToken, baseUrl, launch, openPage, screenshot, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

type Locale = 'en-US' | 'zh-CN';

/** The texts the tests look for, in both languages the journeys run in. */
const TEXT = {
  'en-US': {
    monitor: 'Monitoring centre',
    generation: 'Power and generation',
    generationMonth: 'Generation this month',
    profit: 'Generation and profit',
    month: 'Month',
    year: 'Year',
    total: 'Total',
    weather: 'Weather',
    station: 'Station',
    edit: 'Edit',
    save: 'Save',
    stationName: 'Station name',
    nameRequired: 'Station name is required',
    saved: 'Station saved',
    cover: 'Cover image',
    coverUploaded: 'Cover uploaded; save the station to keep it',
    coverType: 'Choose a picture: JPEG, PNG or WebP',
    map: 'Location',
    devices: 'Device',
    addDevice: 'Add device',
    parent: 'Parent',
    deviceType: 'Device type',
    inverter: 'Inverter',
    deviceName: 'Device name',
    serial: 'Serial number',
    ratedPower: 'Rated power',
    deviceSaved: 'Device saved',
    history: 'History',
    metric: 'Metric',
    dcVoltage: 'DC voltage',
    realtime: 'Real-time values',
    searchDevices: 'Search devices by name or serial number',
    duplicate: 'Already in use',
  },
  'zh-CN': {
    monitor: '监控中心',
    generation: '功率与发电',
    generationMonth: '本月发电量',
    profit: '发电与收益',
    month: '月',
    year: '年',
    total: '累计',
    weather: '天气',
    station: '电站',
    edit: '编辑',
    save: '保存',
    stationName: '电站名称',
    nameRequired: '请输入电站名称',
    saved: '电站已保存',
    cover: '封面图片',
    coverUploaded: '封面已上传，保存电站后生效',
    coverType: '请选择 JPEG、PNG 或 WebP 格式的图片',
    map: '位置',
    devices: '设备',
    addDevice: '新增设备',
    parent: '上级',
    deviceType: '设备类型',
    inverter: '逆变器',
    deviceName: '设备名称',
    serial: '序列号',
    ratedPower: '额定功率',
    deviceSaved: '设备已保存',
    history: '历史数据',
    metric: '指标',
    dcVoltage: '直流电压',
    realtime: '实时数据',
    searchDevices: '按名称或序列号搜索设备',
    duplicate: '已被使用',
  },
} as const;

const tokens: Record<string, Promise<string>> = {};

/** A session for a demo account, signed in through the API once per file (the login page has
 * its own tests). */
function token(username = 'admin'): Promise<string> {
  return (tokens[username] ??= apiToken(username));
}

/** A fresh browser profile, signed in, in the given language and theme. */
async function signedInPage(context: TestContext, locale: Locale, theme: 'light' | 'dark' = 'light') {
  const { page, browserContext } = await openPage(browser, context, locale);
  const value = await token();
  await browserContext.addInitScript(
    ({ value, theme }) => {
      if (!window.localStorage.getItem('helio-token')) {
        window.localStorage.setItem('helio-token', value);
        if (theme === 'dark') {
          window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
        }
      }
    },
    { value, theme },
  );
  return page;
}

/** A PNG of width × height with a gradient, built here so the test needs no fixture file. */
function png(width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      rows[row + 1 + x * 3] = (x * 255) / width;
      rows[row + 2 + x * 3] = (y * 255) / height;
      rows[row + 3 + x * 3] = 160;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Picks a radio button of a button group: Arco hides the input, the label takes the click. */
async function choose(radio: Locator): Promise<void> {
  await radio.locator('xpath=ancestor::label[1]').click();
  await expect.poll(() => radio.isChecked()).toBe(true);
}

/**
 * The current power the card shows, in kW: its exact figure (the title of the big number),
 * as the rounded one (3.71 MW) may stay put for minutes around noon.
 */
async function currentPowerKw(page: Page): Promise<number> {
  const text = (await page.getByTestId('current-power').locator('p').nth(1).getAttribute('title')) ?? '';
  const match = /([\d,.]+)\s*(kW|MW|GW)/.exec(text);
  if (!match) {
    throw new Error(`no power figure in "${text}"`);
  }
  const scale = { kW: 1, MW: 1e3, GW: 1e6 }[match[2] as 'kW' | 'MW' | 'GW'];
  return Number(match[1]!.replace(/,/g, '')) * scale;
}

describe.each(['en-US', 'zh-CN'] as const)('the operator journey in %s', (locale) => {
  const t = TEXT[locale];

  it('lands on the monitor with live figures that refresh on their own, and switches periods', async (context) => {
    const page = await signedInPage(context, locale);
    await page.goto(`${baseUrl()}/`);
    await waitForHash(page, '/monitor');
    await page.getByRole('heading', { level: 1, name: t.monitor }).waitFor();
    const generation = page.getByRole('region', { name: t.generation });
    await generation.getByTestId('current-power').waitFor();
    const first = await currentPowerKw(page);
    expect(first).toBeGreaterThan(0);

    // The simulator steps every 10 s; the page refetches every 30 s and on focus.
    let latest = first;
    const deadline = Date.now() + 90_000;
    while (latest === first && Date.now() < deadline) {
      await page.waitForTimeout(5_000);
      latest = await currentPowerKw(page);
    }
    expect(latest).toBeGreaterThan(0);
    expect(latest).not.toBe(first);

    await choose(generation.getByRole('radio', { name: t.month, exact: true }));
    await generation.getByText(t.generationMonth).waitFor();

    const profit = page.getByRole('region', { name: t.profit });
    for (const period of [t.month, t.year, t.total]) {
      await choose(profit.getByRole('radio', { name: period, exact: true }));
      await profit.getByRole('img', { name: t.profit }).waitFor();
    }
    await page.getByRole('region', { name: t.weather }).getByText('°C').first().waitFor();
    await screenshot(page, `monitor-light-${locale}`);
  });

  it('opens a station from the list, edits it past a validation error and uploads a cover', async (context) => {
    const page = await signedInPage(context, locale);
    await page.goto(`${baseUrl()}/#/station`);
    await page.getByRole('heading', { level: 1, name: t.station, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Kern Valley Solar + Storage' }).first().click();
    await waitForHash(page, /^\/station\/detail\/\d+$/);
    const id = hashId(page);
    await page.getByRole('heading', { level: 1, name: /Kern Valley Solar \+ Storage/ }).waitFor();
    await page.getByRole('img', { name: /Kern Valley Solar \+ Storage/ }).waitFor();
    await screenshot(page, `station-detail-${locale}`);

    await page.getByRole('button', { name: t.edit, exact: true }).click();
    await waitForHash(page, `/station/edit/${id}`);
    const name = page.getByRole('textbox', { name: t.stationName });
    await name.waitFor();
    await name.fill('');
    await page.getByRole('button', { name: t.save, exact: true }).click();
    await page.getByText(t.nameRequired).waitFor();
    expect(hashPath(page)).toBe(`/station/edit/${id}`);

    // A file that is not a picture is refused with a message, before any upload.
    const input = page.getByTestId('cover-input');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await page.getByRole('alert').filter({ hasText: t.coverType }).first().waitFor();

    // A 16:9 picture is cropped to 4:3 in the browser and uploaded.
    await input.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png(1600, 900) });
    await page.getByText(t.coverUploaded).first().waitFor();
    await page.waitForFunction(
      (alt) => (document.querySelector(`img[alt="${alt}"]`) as HTMLImageElement | null)?.src.includes('/v2/site/cover/'),
      t.cover,
    );

    const renamed = `Kern Valley Solar + Storage ${locale}`;
    await name.fill(renamed);
    await page.getByRole('button', { name: t.save, exact: true }).click();
    await waitForHash(page, `/station/detail/${id}`);
    await page.getByText(t.saved).first().waitFor();
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    const cover = page.getByRole('img', { name: t.cover });
    await cover.waitFor();
    await page.waitForFunction((alt) => {
      const image = document.querySelector(`img[alt="${alt}"]`) as HTMLImageElement | null;
      return Boolean(image?.complete && image.naturalWidth > 0);
    }, t.cover);
    const ratio = await cover.evaluate((image: HTMLImageElement) => image.naturalWidth / image.naturalHeight);
    expect(ratio).toBeCloseTo(4 / 3, 2);
  });

  it('adds a device, finds it in the list and opens its history', async (context) => {
    const page = await signedInPage(context, locale);
    await page.goto(`${baseUrl()}/#/device`);
    await page.getByRole('heading', { level: 1, name: t.devices, exact: true }).waitFor();
    await page.getByRole('button', { name: t.addDevice }).click();
    await waitForHash(page, '/device/add');

    await page.getByRole('combobox', { name: t.parent }).click();
    await page.getByRole('tree').getByText('Golmud Desert PV Plant', { exact: true }).click();
    await page.getByRole('combobox', { name: t.deviceType }).click();
    await page.getByRole('option', { name: t.inverter }).click();
    const serial = `E2E-${locale}-${Date.now()}`;
    await page.getByRole('textbox', { name: t.deviceName }).fill(`E2E inverter ${locale}`);
    await page.getByRole('textbox', { name: t.serial, exact: true }).fill(serial);
    await page.getByLabel(t.ratedPower, { exact: true }).fill('50');
    await page.getByRole('button', { name: t.save, exact: true }).click();
    await page.getByText(t.deviceSaved).first().waitFor();
    await waitForHash(page, /^\/device\?name=/);
    expect(await page.getByRole('textbox', { name: t.searchDevices }).inputValue()).toBe(serial);
    // the list is searched by the serial; the serial column itself may sit in the details
    const row = page.getByRole('row').filter({ hasText: `E2E inverter ${locale}` });
    await row.waitFor();
    await row.getByRole('button', { name: `E2E inverter ${locale}`, exact: true }).click();
    await waitForHash(page, /^\/device\/detail\/\d+$/);
    await page.getByRole('heading', { level: 1, name: `E2E inverter ${locale}` }).waitFor();

    // The serial number is unique: the server's 409 shows on its field.
    await page.goto(`${baseUrl()}/#/device/add?stationId=1`);
    await page.getByRole('combobox', { name: t.deviceType }).click();
    await page.getByRole('option', { name: t.inverter }).click();
    await page.getByRole('textbox', { name: t.deviceName }).fill('E2E duplicate');
    await page.getByRole('textbox', { name: t.serial, exact: true }).fill(serial);
    await page.getByLabel(t.ratedPower, { exact: true }).fill('50');
    await page.getByRole('button', { name: t.save, exact: true }).click();
    const serialField = page.locator('.arco-form-item').filter({ has: page.getByRole('textbox', { name: t.serial, exact: true }) });
    await serialField.getByText(t.duplicate).waitFor();
    expect(hashPath(page)).toBe('/device/add?stationId=1');

    // A device with readings: the first inverter of the Golmud plant's first array.
    await page.goto(`${baseUrl()}/#/device?name=INV-01`);
    await page.getByRole('row').filter({ hasText: 'Golmud' }).first().getByRole('button', { name: 'INV-01', exact: true }).click();
    await waitForHash(page, /^\/device\/detail\/\d+$/);
    await page.getByRole('region', { name: t.realtime }).waitFor();
    const history = page.getByRole('region', { name: t.history });
    await history.getByRole('img', { name: new RegExp(t.history) }).waitFor();
    await history.getByRole('combobox', { name: t.metric }).click();
    await page.getByRole('option', { name: t.dcVoltage }).click();
    await history.getByRole('img', { name: new RegExp(t.dcVoltage) }).waitFor();
    await screenshot(page, `device-detail-${locale}`);
  });
});

function hashPath(page: Page): string {
  return decodeURIComponent(new URL(page.url()).hash.replace(/^#/, ''));
}

function hashId(page: Page): string {
  return hashPath(page).split('/').pop() ?? '';
}

describe('the monitor in the dark theme', () => {
  it('draws readable charts on dark backgrounds', async (context) => {
    const page = await signedInPage(context, 'en-US', 'dark');
    await page.goto(`${baseUrl()}/#/monitor`);
    await page.waitForFunction(() => document.body.getAttribute('arco-theme') === 'dark');
    await page.getByRole('img', { name: 'Generation and profit' }).waitFor();
    await page.getByRole('img', { name: 'Plan versus actual generation' }).waitFor();
    await page.waitForTimeout(1_500);
    // Axis labels use the theme's secondary text colour: light on the dark card background.
    const [text, background] = await page.evaluate(() => {
      const style = getComputedStyle(document.body);
      return [style.getPropertyValue('--color-text-2'), style.getPropertyValue('--color-bg-2')];
    });
    expect(luminance(text)).toBeGreaterThan(luminance(background) + 0.3);
    await screenshot(page, 'monitor-dark-en-US');
  });
});

/** Relative luminance 0–1 of an rgb()/rgba()/#rrggbb colour. */
function luminance(color: string): number {
  const hex = /#([\da-f]{2})([\da-f]{2})([\da-f]{2})/i.exec(color);
  const parts = hex
    ? hex.slice(1, 4).map((part) => parseInt(part, 16))
    : (/(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/.exec(color)?.slice(1, 4).map(Number) ?? [0, 0, 0]);
  const alpha = Number(/,\s*([\d.]+)\s*\)$/.exec(color)?.[1] ?? 1);
  const [r, g, b] = parts.map((part) => part / 255);
  return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) * alpha;
}

describe('size and speed', () => {
  /** gzip -9 size of every script a page loads until it settles. */
  async function scripts(page: Page, action: () => Promise<void>): Promise<{ total: number; files: number }> {
    const bodies: Promise<Buffer>[] = [];
    const seen = new Set<string>();
    const onResponse = (response: Response) => {
      const url = response.url();
      if (url.endsWith('.js') && !seen.has(url)) {
        seen.add(url);
        bodies.push(response.body());
      }
    };
    page.on('response', onResponse);
    await action();
    await page.waitForLoadState('networkidle');
    page.off('response', onResponse);
    const sizes = await Promise.all(bodies.map(async (body) => gzipSync(await body, { level: 9 }).length));
    return { total: sizes.reduce((sum, size) => sum + size, 0), files: sizes.length };
  }

  it('measures the login and monitor routes\' JavaScript and the monitor\'s Largest Contentful Paint', async (context) => {
    const { page: login } = await openPage(browser, context, 'zh-CN');
    const loginJs = await scripts(login, async () => {
      await login.goto(`${baseUrl()}/#/login`);
      await login.getByRole('heading', { name: '登录' }).waitFor();
    });

    const page = await signedInPage(context, 'zh-CN');
    await page.addInitScript(() => {
      const win = window as unknown as { __lcp: number };
      win.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          win.__lcp = entry.startTime;
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const monitorJs = await scripts(page, async () => {
      await page.goto(`${baseUrl()}/#/monitor`);
      await page.getByRole('img', { name: '发电与收益' }).waitFor();
    });
    await page.waitForTimeout(1_000);
    // LCP is final once the user interacts; a click on the page heading ends the observation.
    await page.getByRole('heading', { level: 1, name: '监控中心' }).click();
    const lcp = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);

    const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
    console.log(
      `[perf] login route JS ${kB(loginJs.total)} gzipped (${loginJs.files} files, goal ≤ 150 kB); ` +
        `monitor route JS ${kB(monitorJs.total)} gzipped (${monitorJs.files} files, goal ≤ 300 kB); ` +
        `monitor LCP ${Math.round(lcp)} ms (goal ≤ 1000 ms)`,
    );
    expect(loginJs.total).toBeLessThanOrEqual(150 * 1024);
    expect(lcp).toBeGreaterThan(0);
  });
});
