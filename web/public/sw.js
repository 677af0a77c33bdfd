/* Helio's service worker (docs/frontend.md, "Installable"):
 * - keeps the console's shell (index.html, the hashed assets, icons and manifest) in a cache, so
 *   the console opens without the network and shows that it is offline;
 * - shows the app push notifications the server sends (Web Push, docs/notifications.md) and opens
 *   the alarm a notification names when it is tapped. */

// The build (vite.config.ts, installable()) writes the files of the bundle and their version
// here; the development server's copy lists none, and then nothing is cached.
const SHELL = { version: '', files: [] };
const CACHE = `helio-shell-${SHELL.version}`;
const CACHE_PREFIX = 'helio-shell-';
// A page that takes longer than this on a weak signal opens from the cache instead.
const NETWORK_WAIT_MS = 4000;
// The server's own answers: never from a cache (data, sign-in, WebSockets, health).
const NEVER_CACHED = /^\/(v1|v2|api|healthz|readyz|metrics|ws)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (SHELL.files.length === 0
      ? Promise.resolve()
      : caches.open(CACHE).then((cache) => cache.addAll(SHELL.files.map((file) => new Request(new URL(file, self.registration.scope), { cache: 'reload' }))))
    ).then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith(CACHE_PREFIX) && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

/** The page itself: from the network while it answers within a few seconds, else the kept copy of this version. */
async function networkFirst(request) {
  const kept = () => caches.match(new URL('index.html', self.registration.scope).href, { cacheName: CACHE });
  const network = fetch(request);
  network.catch(() => undefined);
  try {
    const first = await Promise.race([network, new Promise((resolve) => setTimeout(resolve, NETWORK_WAIT_MS, null))]);
    if (first) {
      return first;
    }
    return (await kept()) ?? (await network);
  } catch (error) {
    const copy = await kept();
    if (copy) {
      return copy;
    }
    throw error;
  }
}

/** A hashed asset never changes: the kept copy, else the network's (kept for next time). */
async function cacheFirst(request) {
  const kept = await caches.match(request, { cacheName: CACHE });
  if (kept) {
    return kept;
  }
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') {
    const copy = response.clone();
    void caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/** Icons, manifest and the like: the network's, else the kept copy. */
async function networkThenCache(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await caches.match(request, { cacheName: CACHE, ignoreSearch: true });
    if (kept) {
      return kept;
    }
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (SHELL.files.length === 0 || request.method !== 'GET') {
    return;
  }
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) {
    return;
  }
  const path = `/${url.pathname.slice(scope.pathname.length)}`;
  if (NEVER_CACHED.test(path) || path === '/sw.js') {
    return;
  }
  if (request.mode === 'navigate' || path === '/' || path === '/index.html') {
    event.respondWith(networkFirst(request));
  } else if (path.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
  } else {
    event.respondWith(networkThenCache(request));
  }
});

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
