import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBuildProxy } from './new-build';
import { baseUrl, launch, openPage, screenshot, signedInPage, waitForHash } from './support';

// The installable console on a phone (390 × 844): Chromium reads its manifest without errors
// and finds the icons it names; the service worker the console registers takes control of the
// page and keeps the shell; with the browser offline a reload still opens the console (from
// the worker's cache, still signed in) and says it is offline, a screen not visited before
// opens from the cache too (its list waiting for the network), and the notice goes when the
// network returns. A worker of a new
// version removes the caches of the old one. When the server serves a new version while the
// console is open, the page offers to reload, and the reload runs the new one.

const PHONE = { width: 390, height: 844 };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

function offlineText(locale: string, key = 'offline.notice'): string {
  const texts = JSON.parse(readFileSync(join(process.cwd(), 'src', 'locales', `${locale}.json`), 'utf8')) as Record<string, string>;
  return texts[key]!;
}

/** The console open on the monitor at phone size, its worker in control of the page. */
async function controlled(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  await page.goto(`${baseUrl()}/#/monitor`);
  await waitForHash(page, '/monitor');
  await page.locator('header').first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
}

describe('the installable console', () => {
  it('has a manifest Chromium reads, and opens offline from the worker’s cache', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
    await controlled(page);

    // the manifest the page links, as served
    const manifest = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
      if (!link) {
        return null;
      }
      const response = await fetch(link.href);
      const body = (await response.json()) as {
        name: string;
        short_name: string;
        start_url: string;
        scope: string;
        display: string;
        theme_color: string;
        background_color: string;
        icons: { src: string; sizes: string; type: string; purpose: string }[];
      };
      const icons = await Promise.all(
        body.icons.map(async (icon) => {
          const image = new Image();
          image.src = new URL(icon.src, link.href).href;
          await image.decode();
          return `${icon.purpose} ${image.naturalWidth}x${image.naturalHeight} ${icon.sizes}`;
        }),
      );
      return { href: link.href, type: response.headers.get('content-type'), body, icons };
    });
    expect(manifest).not.toBeNull();
    expect(manifest!.href).toBe(`${baseUrl()}/manifest.webmanifest`);
    expect(manifest!.type).toBe('application/manifest+json');
    expect(manifest!.body).toMatchObject({ name: 'Helio', short_name: 'Helio', display: 'standalone', start_url: './', scope: './' });
    expect(manifest!.body.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest!.icons.sort()).toEqual(['any 192x192 192x192', 'any 512x512 512x512', 'maskable 192x192 192x192', 'maskable 512x512 512x512']);
    const themeColors = await page.locator('meta[name="theme-color"]').evaluateAll((metas) => metas.map((m) => m.getAttribute('content')));
    expect(themeColors).toEqual(['#ffffff', '#ffffff']); // the console's light theme, whatever the system's

    // Chromium's own reading of it: no errors, nothing stopping an install
    const cdp = await page.context().newCDPSession(page);
    const read = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };
    expect(read.url).toBe(`${baseUrl()}/manifest.webmanifest`);
    expect(read.errors).toEqual([]);
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    // a test's browser context is a private window, where Chromium installs nothing; nothing else
    expect(installability.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);

    // the worker kept the shell: the page, the manifest and every built file
    const kept = await page.evaluate(async () => {
      const names = (await caches.keys()).filter((name) => name.startsWith('helio-shell-'));
      const cache = await caches.open(names[0]!);
      const paths = (await cache.keys()).map((request) => new URL(request.url).pathname);
      return { names, count: paths.length, index: paths.includes('/index.html'), manifest: paths.includes('/manifest.webmanifest'), api: paths.filter((p) => p.startsWith('/v2/')) };
    });
    expect(kept.names).toHaveLength(1);
    expect(kept).toMatchObject({ index: true, manifest: true, api: [] });
    expect(kept.count).toBeGreaterThan(50);

    // offline: the page and the worker alike reach nothing
    await page.context().setOffline(true);
    expect(await page.evaluate(() => fetch('/readyz').then(() => 'reached', () => 'offline'))).toBe('offline');
    const [worker] = page.context().serviceWorkers();
    expect(await worker!.evaluate(() => fetch('/readyz').then(() => 'reached', () => 'offline'))).toBe('offline');

    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await waitForHash(page, '/monitor');
    const notice = page.getByRole('status').filter({ hasText: offlineText('en-US') });
    await notice.waitFor();
    await page.locator('header').first().waitFor();
    // still signed in: the menu is drawn from the profile kept from the last visit
    expect(await page.evaluate(() => window.localStorage.getItem('helio-token'))).toBeTruthy();
    await page.getByRole('button', { name: 'Open the menu', exact: true }).waitFor();
    await screenshot(page, 'offline-en-US-light-390-monitor');

    // a screen not opened before: its code comes from the cache
    await page.evaluate(() => {
      window.location.hash = '#/operations/workorder';
    });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.locator('header').first().isVisible()).toBe(true);
    // its list waits for the network, and says so
    await page.getByText(offlineText('en-US', 'offline.waiting')).first().waitFor();
    await notice.waitFor();

    // online again: the notice goes and the data comes
    await page.context().setOffline(false);
    await notice.waitFor({ state: 'detached' });
    await page.locator('ul[aria-label] li').first().waitFor({ timeout: 30_000 });
  }, 180_000);

  it('offers a reload when a new version is served while the console is open', async (context) => {
    const server = await newBuildProxy(baseUrl());
    try {
      const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
      await page.setViewportSize(PHONE);
      const open = async () => {
        await page.goto(`${server.url}/#/monitor`);
        await waitForHash(page, '/monitor');
        await page.locator('header').first().waitFor({ timeout: 60_000 });
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
      };
      // the first visit installs the worker; the next one loads under it
      await open();
      await page.reload();
      await open();
      const before = await page.evaluate(async () => (await caches.keys()).find((key) => key.startsWith('helio-shell-')));
      expect(before).toBeTruthy();
      const notice = page.getByRole('status').filter({ hasText: offlineText('en-US', 'offline.update') });
      expect(await notice.count()).toBe(0);

      server.deploy();
      // the hourly check, now
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())!.update();
      });
      await notice.waitFor({ timeout: 60_000 });
      await screenshot(page, 'update-ready-en-US-light-390');
      await notice.getByRole('button', { name: offlineText('en-US', 'offline.reload') }).click();
      await waitForHash(page, '/monitor');
      await page.locator('header').first().waitFor({ timeout: 60_000 });
      // the reloaded page runs under the new worker: its cache, the old one's gone, no notice
      await expect
        .poll(() => page.evaluate(async () => (await caches.keys()).filter((key) => key.startsWith('helio-shell-'))))
        .toEqual([`${before}-next`]);
      expect(await notice.count()).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('removes the caches of an older version when a new worker takes over', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'zh-CN', theme: 'dark' });
    await controlled(page);
    const current = await page.evaluate(async () => {
      await (await caches.open('helio-shell-0123456789abcdef')).put('/old.js', new Response('old'));
      await (await caches.open('not-the-console')).put('/x', new Response('x'));
      const name = (await caches.keys()).find((key) => key.startsWith('helio-shell-') && key !== 'helio-shell-0123456789abcdef');
      // a new worker: the old one gone, the page loaded again
      await (await navigator.serviceWorker.getRegistration())!.unregister();
      return name;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).sort())).toEqual([current, 'not-the-console'].sort());
  }, 120_000);

  // build/chunks.ts: the page's own inline script, allowed by its hash in the page's policy
  it("fetches the shell's code beside the entry when signed in, and not on the sign-in page", async (context) => {
    const watch = () => {
      const w = window as unknown as { violations: string[] };
      w.violations = [];
      document.addEventListener('securitypolicyviolation', (event) => w.violations.push(`${event.violatedDirective} ${event.sample}`));
    };
    const shellPreloads = (page: Page) =>
      page.evaluate(() =>
        Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"], link[rel="stylesheet"]'))
          .map((link) => `${link.rel} ${link.getAttribute('blocking') ?? '-'} ${new URL(link.href).pathname.replace(/-[\w-]+\.(js|css)$/, '.$1')}`)
          .filter((line) => /\/assets\/(core|common|data)\./.test(line))
          .sort(),
      );

    const page = await signedInPage(browser, context, { user: 'operator', locale: 'en-US', theme: 'light' });
    await page.context().addInitScript(watch);
    await page.setViewportSize(PHONE);
    await page.goto(`${baseUrl()}/#/operations/workorder`);
    await page.locator('header').first().waitFor({ timeout: 60_000 });
    expect(await shellPreloads(page)).toEqual([
      'modulepreload - /assets/common.js',
      'modulepreload - /assets/core.js',
      'modulepreload - /assets/data.js',
      'stylesheet render /assets/common.css',
      'stylesheet render /assets/core.css',
    ]);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);

    const { page: visitor } = await openPage(browser, context, 'en-US', PHONE);
    await visitor.context().addInitScript(watch);
    await visitor.goto(`${baseUrl()}/#/login`);
    await visitor.getByRole('button', { name: /sign in/i }).waitFor({ timeout: 60_000 });
    // the sign-in page loads what it shares with the shell (common) itself, never the shell
    expect((await shellPreloads(visitor)).filter((line) => line.includes('/core.') || line.includes(' render '))).toEqual([]);
    expect(await visitor.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  }, 120_000);
});
