import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, baseUrl, launch, screenshot, signedInPage } from './support';

// Escalation through the console: the demo's rule and rota are shown; the administrator adds
// a rule whose steps come in the wrong order (the form says so), puts them right and saves;
// then adds a slot to the on-call rota, and the server holds both.

let browser: Browser;

interface Rule {
  id: number;
  name: string;
  levels: number[];
  steps: { afterMinutes: number; target: string; targetId: number }[];
}

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('escalation', () => {
  it('adds a rule and a rota slot, checked as the server checks them', async (context) => {
    const token = await apiToken();
    const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl()}/#/permission/escalation`);
    await page.getByRole('heading', { name: 'Escalation rules', exact: true }).waitFor();
    // the demo's rule and rota
    await page.getByRole('cell', { name: 'Faults nobody takes on' }).first().waitFor();
    await page.getByTestId('oncall-now').getByText(/On call now: |Nobody is on call now\./).waitFor();
    const slotsBefore = await page.getByTestId('oncall-slot').count();
    expect(slotsBefore).toBe(17); // office hours and nights of five weekdays, whole weekend days

    await page.getByRole('button', { name: 'Add a rule' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('E2E night faults');
    // a second step earlier than the first: refused before it is sent
    await dialog.getByRole('button', { name: 'Add a step' }).click();
    await dialog.getByLabel('After (minutes) 2').fill('10');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.getByText('Each step must come later than the one before').waitFor();
    await dialog.getByLabel('After (minutes) 2').fill('45');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.getByText('Choose who this step notifies').waitFor();
    await dialog.getByRole('combobox', { name: 'Who 2' }).click();
    await page.getByRole('option', { name: 'Oscar Operator' }).first().click();
    await screenshot(page, 'escalation-rule-en-US-light-1440');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'E2E night faults' }).first().waitFor();

    const rules = await api<Rule[]>('/v2/escalation/rules', token);
    const added = rules.find((r) => r.name === 'E2E night faults');
    expect(added?.levels).toEqual([2]);
    expect(added?.steps.map((s) => [s.afterMinutes, s.target])).toEqual([
      [15, 'oncall'],
      [45, 'user'],
    ]);
    expect(added?.steps[1]?.targetId).toBeGreaterThan(0);

    // a rota slot ending before it starts is refused; put right, it is saved
    await page.getByRole('button', { name: 'Add a slot' }).click();
    const n = slotsBefore + 1;
    await page.getByLabel(`From ${n}`).fill('22:00');
    await page.getByLabel(`To ${n}`).fill('06:00');
    await page.getByRole('combobox', { name: `Person ${n}` }).click();
    await page.getByRole('option', { name: 'Oscar Operator' }).first().click();
    await page.getByRole('button', { name: 'Save the rota' }).click();
    await page.getByText('The end must be after the start').waitFor();
    await page.getByLabel(`To ${n}`).fill('24:00');
    await page.getByRole('button', { name: 'Save the rota' }).click();
    await page.getByText('Rota saved').waitFor();
    const rota = await api<{ slots: unknown[] }>('/v2/escalation/rota', token);
    expect(rota.slots).toHaveLength(n);
    await screenshot(page, 'escalation-en-US-light-1440');

    // clean up, so other tests see the demo as it was
    if (added) await api(`/v2/escalation/rules/delete/${added.id}`, token, { method: 'POST' });
  }, 120_000);

  it('shows the escalation screen in zh-CN, dark, at 1440 and 390 px', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'zh-CN', theme: 'dark' });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl()}/#/permission/escalation`);
      await page.getByRole('heading', { name: '升级规则', exact: true }).waitFor();
      await page.getByText('Faults nobody takes on').first().waitFor();
      await page.getByRole('heading', { name: '值班表', exact: true }).waitFor();
      // the page itself never scrolls sideways
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(wide).toBeLessThanOrEqual(0);
      await screenshot(page, `escalation-zh-CN-dark-${width}`);
    }
  }, 120_000);
});
