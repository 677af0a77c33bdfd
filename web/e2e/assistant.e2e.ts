import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { baseUrl, DEMO_PASSWORD, launch, openPage, screenshot, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  'en-US': { username: 'Username', password: 'Password', open: 'Assistant', question: 'Your question', ask: 'Ask', stop: 'Stop',
    stopped: 'Stopped.', documents: 'Assistant documents', upload: 'Upload document', ready: 'Ready', cited: 'Cited passage' },
  'zh-CN': { username: '用户名', password: '密码', open: '智能助手', question: '您的问题', ask: '提问', stop: '停止',
    stopped: '已停止。', documents: '助手文档库', upload: '上传文档', ready: '已就绪', cited: '引用的段落' },
} as const;
type Locale = keyof typeof TEXT;

async function signIn(context: TestContext, locale: Locale, theme: 'light' | 'dark', redirect: string): Promise<Page> {
  const { page, browserContext } = await openPage(browser, context, locale);
  if (theme === 'dark') {
    await browserContext.addInitScript(() => {
      if (!window.localStorage.getItem('helio-settings')) {
        window.localStorage.setItem('helio-settings', JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
      }
    });
  }
  await page.goto(`${baseUrl()}/#/login?redirect=${redirect}`);
  const text = TEXT[locale];
  await page.getByLabel(text.username).fill('admin');
  await page.getByLabel(text.password).fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  return page;
}

async function askInPanel(page: Page, locale: Locale, question: string) {
  const text = TEXT[locale];
  const panel = page.locator('.arco-drawer').filter({ has: page.getByLabel(text.question) });
  if (!(await panel.isVisible())) {
    await page.getByRole('button', { name: text.open, exact: true }).click();
  }
  await panel.getByLabel(text.question).fill(question);
  await panel.getByRole('button', { name: text.ask }).click();
  return panel;
}

const MANUAL = `# Quokkabot docking

The Quokkabot cleaning robot docks at the east end of each array row. To dock it by hand,
hold the green button for five seconds until the beacon blinks twice.
`;

describe('assistant', () => {
  it('indexes an uploaded manual, answers from it with its source, and stops a long answer (en-US, light)', async (context) => {
    const page = await signIn(context, 'en-US', 'light', 'monitor');
    await waitForHash(page, '/monitor');
    await page.goto(`${baseUrl()}/#/assistant/documents`);
    const text = TEXT['en-US'];
    await page.getByRole('heading', { name: text.documents, level: 1 }).waitFor();
    // the demo's own manuals are there and indexed
    const table = page.getByRole('table', { name: 'Documents' });
    await table.getByText('sunforge-fault-codes.md').waitFor();
    await page.locator('[data-testid="document-file"]').setInputFiles({
      name: 'quokkabot.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(MANUAL),
    });
    const row = table.getByRole('row').filter({ hasText: 'quokkabot.md' });
    await row.getByText(text.ready, { exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'assistant-documents-en-US-light');

    // ask: the streamed answer quotes the manual and names it as its source
    const panel = await askInPanel(page, 'en-US', 'How do I dock the Quokkabot by hand?');
    const answer = panel.locator('[data-state]').last();
    await expect.poll(() => answer.textContent(), { timeout: 20_000 }).toContain('According to [1]');
    await expect.poll(() => answer.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
    expect(await answer.textContent()).toContain('green button');
    const source = panel.getByRole('link', { name: /quokkabot\.md/ });
    await source.waitFor();
    await screenshot(page, 'assistant-panel-en-US-light');

    // a long answer streams, and Stop ends it
    await askInPanel(page, 'en-US', 'Tell me slowly everything about isolation faults');
    const long = panel.locator('[data-state]').last();
    await expect.poll(async () => (await long.textContent())?.length ?? 0, { timeout: 20_000 }).toBeGreaterThan(80);
    await panel.getByRole('button', { name: text.stop }).click();
    await expect.poll(() => long.getAttribute('data-state')).toBe('stopped');
    const frozen = (await long.textContent()) ?? '';
    expect(frozen).toContain(text.stopped);
    await page.waitForTimeout(500);
    expect(await long.textContent()).toBe(frozen);
    expect(frozen).not.toContain('detail1999');

    // the source opens the document at the cited passage
    await source.click();
    await waitForHash(page, /^\/assistant\/documents\?doc=\d+/);
    const dialog = page.getByRole('dialog');
    await dialog.getByText(text.cited, { exact: false }).waitFor();
    expect(await dialog.textContent()).toContain('hold the green button');
  });

  it('answers a Chinese question from the Chinese manual (zh-CN, dark)', async (context) => {
    const page = await signIn(context, 'zh-CN', 'dark', 'monitor');
    await waitForHash(page, '/monitor');
    const panel = await askInPanel(page, 'zh-CN', '逆变器过温怎么处理？');
    const answer = panel.locator('[data-state]').last();
    await expect.poll(() => answer.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
    await panel.getByRole('link', { name: /overtemp-zh\.md/ }).first().waitFor();
    await screenshot(page, 'assistant-panel-zh-CN-dark');
    await page.goto(`${baseUrl()}/#/assistant/documents`);
    await page.getByRole('heading', { name: TEXT['zh-CN'].documents, level: 1 }).waitFor();
    await page.getByRole('table').getByText('overtemp-zh.md').waitFor();
    await screenshot(page, 'assistant-documents-zh-CN-dark');
  });
});
