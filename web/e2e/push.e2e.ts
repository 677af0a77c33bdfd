import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, hashPath, launch, screenshot, signedInPage } from './support';

// App push in the browser: the console's service worker shows the notification a push
// message carries (delivered to it by the browser's own push machinery, through Chromium's
// DevTools protocol, since no push service can run here) and opens the alarm it names when
// it is tapped. The server's side (encryption, VAPID, the push service) is tested in Go
// against a push service stand-in that decrypts (internal/notify).

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('app push', () => {
  it('shows a pushed alarm as a notification and opens the alarm on a tap', async (context) => {
    const page = await signedInPage(browser, context, { locale: 'en-US', theme: 'light' });
    await page.context().grantPermissions(['notifications'], { origin: baseUrl() });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl()}/#/alarm?tab=settings`);
    const appPush = page.getByRole('checkbox', { name: 'App push' });
    await appPush.waitFor({ state: 'attached' });
    if (!(await appPush.isChecked())) await appPush.locator('xpath=ancestor::label[1]').click(); // Arco hides the input
    await page.getByText('This browser does not get app push notifications yet.').waitFor();
    await screenshot(page, 'notify-app-push-en-US-light-1440');

    // the worker the console registers, controlling the page
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cdp = await page.context().newCDPSession(page);
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
        const r = e.registrations.find((x) => x.scopeURL === `${baseUrl()}/`);
        if (r) resolve(r.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const message = { title: 'Alarm raised: Inverter fault at Golmud Plant', body: 'Fault · Golmud Plant · Inverter 7', url: '/alarm?detail=1', tag: 'alarm.raised-1', level: 2, id: 'hd_1' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseUrl(), registrationId: await registration, data: JSON.stringify(message) });

    await expect
      .poll(() =>
        page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data as unknown }))),
      )
      .toEqual([{ title: message.title, body: message.body, data: { url: '/alarm?detail=1', id: 'hd_1' } }]);

    // a tap: the worker's notificationclick handler, given the notification it showed
    const [worker] = page.context().serviceWorkers();
    expect(worker).toBeTruthy();
    await page.goto(`${baseUrl()}/#/monitor`);
    await worker!.evaluate(async () => {
      // the worker's own globals (ServiceWorkerGlobalScope, NotificationEvent), which the
      // page's type library does not name
      const sw = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent: (e: Event) => boolean };
      const NotificationEvent = (self as unknown as Record<string, new (type: string, init: { notification: Notification }) => Event>)
        .NotificationEvent!;
      const [n] = await sw.registration.getNotifications();
      sw.dispatchEvent(new NotificationEvent('notificationclick', { notification: n! }));
    });
    await expect.poll(() => hashPath(page)).toBe('/alarm?detail=1');
  }, 120_000);
});
