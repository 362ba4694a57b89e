// The static site's service worker (docs/WEB.md "Without a server"): every
// file of the site is cached at the first visit, so that the page, the
// engine module and its worker load without a network afterwards (the
// tables are in IndexedDB, kept by the engine). The cache's name carries the
// build's digest of the files (tools/build_wasm.sh fills it in): a new
// build replaces the old cache at its first visit.
const kCache = 'penk-site-@SITE_DIGEST@';
const kFiles = [@SITE_FILES@];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(kCache).then((cache) => cache.addAll(kFiles)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== kCache) await caches.delete(name);
    await self.clients.claim();
  })());
});

// The cache first (the files of one build belong together), the network for
// anything else.
self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  event.respondWith((async () => {
    const cached = await caches.match(event.request, { ignoreSearch: true });
    return cached || fetch(event.request);
  })());
});
