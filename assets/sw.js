// Promptscope's service worker: the app works offline after one visit.
//
// Only the app's own files are ever handled, and only GET requests for this
// origin: everything else passes through untouched (the page's CSP already
// forbids other origins). Trunk's hashed files (name-<hash>.js/.wasm/.css)
// never change, so they are served cache-first; the page, boot.js and the
// other unhashed files go to the network first and fall back to the cache,
// so a new deployment is picked up as soon as the network allows.
const CACHE = 'promptscope-v1';
const HASHED = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/;

// Everything index.html names (hashed module, wasm, CSS, boot.js), icons,
// fetched once at install so the first visit already works offline.
async function precache() {
  const cache = await caches.open(CACHE);
  const scope = new URL(self.registration.scope);
  const page = await fetch(scope, { cache: 'no-store' });
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put(scope, page);
  // The engine worker too (renders with a GGUF's vocabulary); not the
  // generation worker, which is fetched the first time it is used.
  const names = new Set([
    'manifest.webmanifest',
    'icon.svg',
    'icon-192.png',
    'icon-512.png',
    'engine-worker_loader.js',
    'engine-worker.js',
    'engine-worker_bg.wasm',
  ]);
  for (const m of html.matchAll(/(?:href|src|data-js|data-wasm)="([^"]+)"/g)) {
    const url = new URL(m[1], scope);
    if (url.origin === scope.origin) names.add(url.href);
  }
  await Promise.all(
    [...names].map(async (name) => {
      const url = new URL(name, scope);
      try {
        const res = await fetch(url, { cache: 'no-store' });
        if (res.ok) await cache.put(url, res);
      } catch {
        // Missing optional files (icons) do not stop the install.
      }
    }),
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(request);
    if (res.ok) await cache.put(request, res.clone());
    return res;
  } catch (err) {
    // Query strings (?embed=1, ?lang=) and fragments select state, not files.
    const hit = (await cache.match(request)) ?? (await cache.match(request, { ignoreSearch: true }));
    if (hit) return hit;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request));
});
