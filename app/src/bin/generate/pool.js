// The threaded generation worker's helper threads (wasm-bindgen snippet of
// app/src/bin/generate/mod.rs; see crates/inference/src/web_pool.rs). Each
// helper is a module worker running this same file: it loads the worker's
// wasm-bindgen module with the worker's compiled module and shared memory,
// says it is ready, and runs `pool_helper`, which takes the matrix
// products' tiles for good. The same-origin URL needs no blob (the page's
// Content-Security-Policy has `worker-src 'self'`).

const INIT = 'promptscope-pool-init';
const READY = 'promptscope-pool-ready';
const NAME = 'promptscope-pool';

// Kept, so that no browser collects a worker only the memory refers to.
const helpers = [];

/**
 * Starts `count` helpers; resolves when each has loaded the module.
 * `mainJS` is the URL of the worker's wasm-bindgen module.
 */
export function startHelpers(module, memory, mainJS, count) {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const w = new Worker(new URL(import.meta.url), { type: 'module', name: NAME });
          w.addEventListener('message', ({ data }) => data?.type === READY && resolve(w));
          w.addEventListener('error', (e) => reject(new Error(e.message || 'a helper thread did not start')));
          w.postMessage({ type: INIT, module, memory, mainJS });
          helpers.push(w);
        }),
    ),
  );
}

// In a helper: the module and memory come in the first message.
if (typeof WorkerGlobalScope !== 'undefined' && self.name === NAME) {
  self.addEventListener(
    'message',
    async ({ data }) => {
      if (data?.type !== INIT) return;
      const pkg = await import(data.mainJS);
      await pkg.default({ module_or_path: data.module, memory: data.memory });
      self.postMessage({ type: READY });
      pkg.pool_helper();
    },
    { once: true },
  );
}
