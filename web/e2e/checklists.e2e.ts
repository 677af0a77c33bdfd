import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, baseUrl, launch, screenshot, signedInPage } from './support';

// Checklist templates through the console: the administrator finds the screen in the menu
// (Operations), sees the demo's templates, adds one whose items the form checks first (a
// label missing) and the server checks after (a name already taken), moves an item up, saves,
// edits it, and deletes it; the server holds each step. Then the screen in zh-CN, dark, at a
// desktop and a phone width, and the permission section's links to its other pages.

let browser: Browser;

interface Template {
  id: number;
  name: string;
  items: { key: string; label: string; kind: string; unit?: string; required: boolean }[];
}

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('checklist templates', () => {
  it('adds, edits and deletes a template, checked as the server checks it', async (context) => {
    const token = await apiToken();
    const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl()}/#/monitor`);
    await page.getByRole('menuitem', { name: 'Checklist templates', exact: true }).click();
    await page.getByRole('heading', { name: 'Checklist templates', exact: true }).first().waitFor();
    // the demo's templates, with their items and how many are required
    await page.getByRole('cell', { name: 'Inverter service', exact: true }).waitFor();
    await page.getByText('4 of 5 required').waitFor();
    await page.getByText('String 1 open-circuit voltage').waitFor();

    await page.getByRole('button', { name: 'Add a template' }).click();
    const dialog = page.getByRole('dialog');
    // the demo's name: the server refuses it after the form let it through
    await dialog.getByLabel('Name', { exact: true }).fill('Inverter service');
    await dialog.getByLabel('Item 1', { exact: true }).fill('Tracker lubricated');
    await dialog.getByRole('button', { name: 'Add an item' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Say what to do').waitFor();
    await dialog.getByLabel('Item 2', { exact: true }).fill('Inverter energy counter');
    await dialog.getByRole('combobox', { name: 'Kind of item 2' }).click();
    await page.getByRole('option', { name: 'Reading' }).click();
    await dialog.getByLabel('Unit of item 2').fill('kWh');
    await dialog.getByRole('button', { name: 'Move item 2 up' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('A checklist template of this name exists').waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill('E2E tracker service');
    await screenshot(page, 'checklist-template-en-US-light-1440');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'E2E tracker service', exact: true }).waitFor();

    let templates = await api<Template[]>('/v2/checklist/template/list', token);
    const added = templates.find((tpl) => tpl.name === 'E2E tracker service');
    expect(added?.items).toEqual([
      { key: 'inverter-energy-counter', label: 'Inverter energy counter', kind: 'reading', unit: 'kWh', required: false },
      { key: 'tracker-lubricated', label: 'Tracker lubricated', kind: 'check', required: true },
    ]);

    // edit: the name and one item required; a saved item keeps its key when relabelled
    const row = page.getByRole('row').filter({ hasText: 'E2E tracker service' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('E2E tracker service (quarterly)');
    await dialog.getByLabel('Item 1', { exact: true }).fill('Inverter energy counter reading');
    await dialog.getByTestId('checklist-item').first().locator('.arco-checkbox').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'E2E tracker service (quarterly)', exact: true }).waitFor();
    templates = await api<Template[]>('/v2/checklist/template/list', token);
    const edited = templates.find((tpl) => tpl.id === added?.id);
    expect(edited?.items.map((item) => [item.key, item.label, item.required])).toEqual([
      ['inverter-energy-counter', 'Inverter energy counter reading', true],
      ['tracker-lubricated', 'Tracker lubricated', true],
    ]);

    await page.getByRole('row').filter({ hasText: 'E2E tracker service (quarterly)' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Template deleted').waitFor();
    templates = await api<Template[]>('/v2/checklist/template/list', token);
    expect(templates.some((tpl) => tpl.id === added?.id)).toBe(false);
  }, 120_000);

  it('shows the screen in zh-CN, dark, at 1440 and 390 px; the permission pages link to each other', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'zh-CN', theme: 'dark' });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl()}/#/operations/checklists`);
      await page.getByRole('heading', { name: '检查表模板', exact: true }).first().waitFor();
      await page.getByText('Inverter service').first().waitFor();
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(wide).toBeLessThanOrEqual(0);
      await screenshot(page, `checklists-zh-CN-dark-${width}`);
    }
    await page.getByRole('button', { name: '新增模板' }).click();
    await page.getByRole('dialog').getByLabel('第 1 项', { exact: true }).waitFor();
    await screenshot(page, 'checklist-template-zh-CN-dark-390');
    await page.keyboard.press('Escape');

    // the permission section: each of its pages is a link on the others
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl()}/#/permission`);
    const section = page.getByRole('navigation', { name: '接入与自动化' });
    await section.getByRole('link', { name: '告警升级' }).click();
    await page.getByRole('heading', { name: '升级规则', exact: true }).waitFor();
    expect(await section.getByRole('link').count()).toBe(8);
    await screenshot(page, 'permission-section-zh-CN-dark-1440');
  }, 120_000);
});
