// Promptscope's service worker: the app works offline after one visit.
//
// Only the app's own files are ever handled, and only GET requests for this
// origin: everything else passes through untouched (the page's CSP already
// forbids other origins). Trunk's hashed files (name-<hash>.js/.wasm/.css)
// never change, so they are served cache-first; the page, boot.js and the
// other unhashed files go to the network first and fall back to the cache,
// so a new deployment is picked up as soon as the network allows.
//
// Every answer it gives carries Cross-Origin-Opener-Policy: same-origin and
// Cross-Origin-Embedder-Policy: require-corp (the coi-serviceworker
// technique): a static host cannot be asked for headers, and with them the
// page is cross-origin isolated, so it has SharedArrayBuffer and the
// Generate pane can run its threaded worker. The app loads nothing from
// other origins (its CSP forbids it), so require-corp blocks nothing. A
// page loaded before this worker controlled it is not isolated: boot.js
// reloads it once when the worker takes control. An iframe (`?embed=1`) is
// isolated only where its host page is; COOP is ignored in a frame and
// COEP only asks the same of the frame's own subresources.
const CACHE = 'promptscope-v1';
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
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

// The answer with the isolation headers (an opaque or error answer has no
// headers to add to; the cache keeps answers as the server sent them).
function isolated(res) {
  if (res.type === 'opaque' || res.type === 'error' || res.status === 0) return res;
  const headers = new Headers(res.headers);
  for (const [name, value] of Object.entries(ISOLATION)) headers.set(name, value);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith((HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request)).then(isolated));
});
