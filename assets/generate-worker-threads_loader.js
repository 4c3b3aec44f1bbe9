// Starts the threaded generation worker (a module worker; see
// app/src/bin/generate_worker_threads.rs). wasm-bindgen's `--target web`
// module needs its wasm named; the worker then starts its pool of Web
// Workers (`?threads=N` on this file's URL, read by the worker) and posts
// `{type: "ready"}`. A failure to start (no shared memory: the page is not
// cross-origin isolated) is posted as the worker's other errors are.
import init from './generate-worker-threads.js';

try {
  await init({ module_or_path: new URL('./generate-worker-threads_bg.wasm', import.meta.url) });
} catch (err) {
  self.postMessage({ type: 'error', message: `the threaded generation worker did not start: ${err}` });
}
