import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, hashPath, launch, openPage, screenshot, signIn, waitForHash } from './support';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(page: Page, username = 'admin') {
  await page.goto(`${baseUrl()}/#/login`);
  await signIn(page, username);
  await waitForHash(page, '/monitor');
  await page.getByRole('heading', { name: 'Monitoring centre' }).waitFor();
}

describe('signing in', () => {
  it('sends an unauthenticated visit to login with the redirect query, and back after sign-in', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await page.goto(`${baseUrl()}/#/station?x=1`);
    await waitForHash(page, /^\/login\?/);
    const query = new URLSearchParams(hashPath(page).split('?')[1]);
    expect(query.get('redirect')).toBe('station');
    expect(query.get('x')).toBe('1');
    await signIn(page);
    await waitForHash(page, '/station?x=1');
    await page.getByRole('heading', { name: 'Station', exact: true }).waitFor();
  });

  it('shows why a sign-in failed and stays on the login page', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await page.goto(`${baseUrl()}/#/login`);
    await signIn(page, 'operator', 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/wrong username or password/i);
    expect(hashPath(page)).toBe('/login');
  });

  it('opens a first visit in the browser\'s language when it is one of the five', async (context) => {
    for (const [language, heading] of [['en-US', 'Sign in'], ['ja-JP', 'サインイン'], ['zh-HK', '登入']]) {
      const { page } = await openPage(browser, context, { browser: language! });
      await page.goto(`${baseUrl()}/#/login`);
      await page.getByRole('heading', { name: heading }).waitFor();
      // chosen, not stored: a later visit follows the browser until the user picks a language
      expect(await page.evaluate(() => window.localStorage.getItem('helio-locale'))).toBeNull();
    }
  });

  it('rewrites every message of the sign-in page in the language switched to', async (context) => {
    const { page } = await openPage(browser, context, { browser: 'fr-FR' });
    await page.goto(`${baseUrl()}/#/login`);
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByText('用户名不能为空').waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    expect(await page.getByText('用户名不能为空').count()).toBe(0);

    await signIn(page, 'storage', 'not-the-password');
    await page.getByRole('alert').filter({ hasText: /wrong username or password/i }).waitFor();
    await page.getByRole('button', { name: '한국어' }).click();
    await page.getByRole('alert').filter({ hasText: '사용자 이름 또는 비밀번호가 올바르지 않습니다' }).waitFor();
    expect(await page.getByLabel('사용자 이름').count()).toBe(1);
  });

  it('requires both fields before calling the server', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await page.goto(`${baseUrl()}/#/login`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
  });

  it('lands on the monitor after a successful sign-in, in Chinese for a browser in none of the five languages', async (context) => {
    const { page } = await openPage(browser, context, { browser: 'fr-FR' });
    await page.goto(`${baseUrl()}/`);
    await waitForHash(page, '/login');
    await page.getByRole('heading', { name: '登录' }).waitFor();
    await screenshot(page, 'login-light-zh-CN');
    // a fresh browser takes the user's configuration from the server: a user no other test configures
    await page.getByLabel('用户名').fill('manager');
    await page.getByLabel('密码').fill('helio-demo');
    await page.keyboard.press('Enter');
    await waitForHash(page, '/monitor');
    await page.getByRole('heading', { name: '监控中心' }).waitFor();
    await page.getByRole('region', { name: '功率与发电' }).waitFor();
    expect(await page.title()).toBe('Helio');
  });

  it('logs out back to the login page', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await signedIn(page);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await waitForHash(page, '/login');
    expect(await page.evaluate(() => window.localStorage.getItem('helio-token'))).toBeNull();
    await page.goto(`${baseUrl()}/#/monitor`);
    await waitForHash(page, /^\/login\?redirect=monitor/);
  });
});

describe('the signed-in shell', () => {
  it('switches the language, confirms it and keeps it', async (context) => {
    const { page } = await openPage(browser, context, 'zh-CN');
    await page.goto(`${baseUrl()}/#/login`);
    await page.getByLabel('用户名').fill('manager');
    await page.getByLabel('密码').fill('helio-demo');
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('heading', { name: '监控中心' }).waitFor();
    await screenshot(page, 'shell-light-zh-CN');

    await page.getByRole('button', { name: '语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByText('Language switched to English').waitFor();
    await page.getByRole('heading', { name: 'Monitoring centre' }).waitFor();
    await page.getByRole('menuitem', { name: 'Data analysis' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Monitoring centre' }).waitFor();
    await screenshot(page, 'shell-light-en-US');
  });

  it('switches to the dark theme and keeps it', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await signedIn(page);
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await page.waitForFunction(() => document.body.getAttribute('arco-theme') === 'dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Monitoring centre' }).waitFor();
    expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBe('dark');
    await screenshot(page, 'shell-dark-en-US');

    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: '简体中文' }).click();
    await page.getByRole('heading', { name: '监控中心' }).waitFor();
    await screenshot(page, 'shell-dark-zh-CN');

    await page.getByRole('button', { name: '切换为亮色主题' }).click();
    await page.waitForFunction(() => !document.body.hasAttribute('arco-theme'));
  });

  it('applies settings drawer toggles and keeps them over a reload', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await signedIn(page);
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Open pages' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Page settings' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('Page settings').first().waitFor();
    await drawer.getByRole('switch', { name: 'Footer' }).click();
    await drawer.getByRole('switch', { name: 'Tab bar' }).click();
    await page.getByRole('contentinfo').waitFor();
    await page.getByRole('list', { name: 'Open pages' }).waitFor();
    await screenshot(page, 'settings-drawer-en-US');

    await page.reload();
    await page.getByRole('heading', { name: 'Monitoring centre' }).waitFor();
    await page.getByRole('contentinfo').waitFor();
    await page.getByRole('list', { name: 'Open pages' }).waitFor();

    await page.getByRole('menuitem', { name: 'Alarm' }).click();
    await waitForHash(page, '/alarm');
    await page.getByRole('button', { name: 'Alarm', exact: true }).waitFor();
  });

  it('hides the navbar and offers the floating settings button instead', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await signedIn(page);
    await page.getByRole('button', { name: 'Page settings' }).click();
    await page.getByRole('dialog').getByRole('switch', { name: 'Navbar' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open page settings' }).waitFor();
    expect(await page.getByRole('button', { name: 'Page settings', exact: true }).count()).toBe(0);
  });

  it('shows the 404 page for an unknown path, signed out and signed in', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await page.goto(`${baseUrl()}/#/no/such/page`);
    await page.getByText('Sorry, this page is gone.').waitFor();
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).waitFor();

    await signedIn(page);
    await page.goto(`${baseUrl()}/#/no/such/page`);
    await page.getByText('Sorry, this page is gone.').waitFor();
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
  });

  it('opens the old wrapper paths and the user settings', async (context) => {
    const { page } = await openPage(browser, context, 'en-US');
    await signedIn(page, 'operator');
    await page.goto(`${baseUrl()}/#/operationsLayout`);
    await waitForHash(page, '/operations/plan');
    await page.getByRole('heading', { name: 'Plan', exact: true, level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'User settings' }).click();
    await waitForHash(page, '/user/settings');
    await page.getByRole('tab', { name: 'Basic information' }).waitFor();
    await page.getByText('Ordinary user').first().waitFor();
  });
});
