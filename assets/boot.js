// Starts the Promptscope WebAssembly app.
//
// Trunk's default loader is an inline <script>, which the page's
// Content-Security-Policy forbids; Trunk.toml's `pattern_script` instead emits
// <script type="module" src="boot.js" data-js="…" data-wasm="…">, and this file
// loads the (hashed) wasm-bindgen module and the wasm named there.
const tag = document.querySelector('script[data-wasm][data-js]');
if (!tag) {
  throw new Error('Promptscope: loader tag with data-js/data-wasm not found');
}
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
document.documentElement.dataset.appReady = 'true';

// The offline service worker (assets/sw.js). Not inside frames: an
// embedding page (often a sandboxed iframe with an opaque origin) must not
// get a worker installed on its behalf.
const framed = (() => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
})();
if ('serviceWorker' in navigator && !framed && window.isSecureContext && self.origin !== 'null') {
  // The worker also makes the page cross-origin isolated (its answers carry
  // COOP and COEP; the Generate pane's threads need that). A page it did
  // not serve is not: when it takes control (the first visit, or a new
  // sw.js), reload once, unless the user has already started working (the
  // next visit is isolated then) or this tab already reloaded for it (a
  // browser that does not isolate must not loop).
  const RELOADED = 'promptscope.isolation-reload';
  let touched = false;
  for (const type of ['pointerdown', 'keydown', 'input', 'drop']) {
    window.addEventListener(type, () => (touched = true), { capture: true, once: true });
  }
  const reloadedBefore = () => {
    try {
      return sessionStorage.getItem(RELOADED) !== null;
    } catch {
      return true;
    }
  };
  if (!window.crossOriginIsolated) {
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (touched || window.crossOriginIsolated || reloadedBefore()) return;
      try {
        sessionStorage.setItem(RELOADED, String(Date.now()));
      } catch {
        return;
      }
      window.location.reload();
    });
  }
  navigator.serviceWorker.register(new URL('sw.js', document.baseURI)).catch((err) => {
    console.warn('Promptscope: offline support unavailable:', err);
  });
}
