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
  navigator.serviceWorker.register(new URL('sw.js', document.baseURI)).catch((err) => {
    console.warn('Promptscope: offline support unavailable:', err);
  });
}
