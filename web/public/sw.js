/* Helio's service worker: shows the app push notifications the server sends (Web Push,
 * docs/notifications.md) and opens the alarm a notification names when it is tapped. */

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** The notification of a push: the server's JSON (internal/notify.PushMessage). */
function notificationOf(data) {
  return {
    title: data.title || 'Helio',
    options: {
      body: data.body || '',
      tag: data.tag || data.id,
      icon: '/favicon.svg',
      badge: '/favicon.svg',
      requireInteraction: data.level >= 2,
      data: { url: data.url || '/alarm', id: data.id },
    },
  };
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : 'Helio' };
  }
  const n = notificationOf(data);
  event.waitUntil(self.registration.showNotification(n.title, n.options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL('/#' + (event.notification.data?.url || '/alarm'), self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        return open.navigate(target).then((w) => (w || open).focus());
      }
      return self.clients.openWindow(target);
    }),
  );
});
