// A bare page that speaks to the app's generation worker (dist/'s
// generate-worker) as the Generate pane does, for the browser greedy check
// and the generation benchmark: the release build under /app/, the models
// under /models/, and whatever else the caller links in.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { DIST } from './harness.mjs';
import { startStaticServer } from './static-server.mjs';

/**
 * The page's script: `window.promptscopeRuns(model, prompts, nGen, nCtx,
 * build, threads, gpu, logitsOf, layers)` loads `./models/<model>` into one
 * worker of `build` (the worker binary: `generate-worker`, the default,
 * `generate-worker-relaxed`, or `generate-worker-threads`, a module worker
 * started with a pool of `threads` workers, default 2, as the Generate pane
 * starts it) on WebGPU or not (`gpu`: `off`, the default, `prefer` or
 * `require`), keeps its first `layers` layers when given (tests), gives the
 * logits after each token list of `logitsOf` (from an empty context) and
 * then, for the first `firstLogits` prompts, the logits of the prompt's
 * last token as the generation evaluates them (no second evaluation), runs
 * each prompt once through
 * `/api/generate` raw (greedy: temperature 0) and resolves to `{loaded: {ms,
 * arch, runner, engine}, logits: [[...]], runs: [{prompt_n, prompt_ms, gen_n, gen_ms, done_reason,
 * text, pieces}]}`; it rejects with the worker's error message.
 */
export const WORKER_SCRIPT = `
async function modelFile(name) {
  const res = await fetch('./models/' + name);
  if (!res.ok) throw new Error('cannot fetch ' + name + ': ' + res.status);
  return new File([await res.blob()], name);
}

window.promptscopeRuns = async (model, prompts, nGen, nCtx, build = 'generate-worker', threads = 2, gpu = 'off', logitsOf = null, layers = undefined, firstLogits = 0) => {
  const worker = build.endsWith('-threads')
    ? new Worker('./app/' + build + '_loader.js?threads=' + threads, { type: 'module' })
    : new Worker('./app/' + build + '_loader.js');
  const inbox = [];
  let wake = null;
  worker.onmessage = (e) => { inbox.push(e.data); wake?.(); };
  worker.onerror = (e) => { inbox.push({ type: 'error', message: e.message }); wake?.(); };
  const next = async () => {
    while (!inbox.length) await new Promise((r) => (wake = r));
    const m = inbox.shift();
    if (m.type === 'error') throw new Error(m.message);
    return m;
  };
  const until = async (type) => { for (;;) { const m = await next(); if (m.type === type) return m; } };
  try {
    await until('ready');
    worker.postMessage({ type: 'load', file: await modelFile(model), num_ctx: nCtx, gpu, layers });
    const l = await until('loaded');
    const loaded = { ms: l.ms, arch: l.arch, runner: l.runner, engine: l.engine };
    // the logits after each token list of logitsOf, from an empty context
    const logits = [];
    for (const ids of logitsOf ?? []) {
      worker.postMessage({ type: 'logits', ids });
      logits.push(Array.from((await until('logits')).values));
    }
    const runs = [];
    for (const [i, prompt] of prompts.entries()) {
      const job = {
        endpoint: 'generate', model: 'm', prompt, leading_bos: null,
        options: { temperature: 0, num_predict: nGen, num_ctx: nCtx },
        truncate: true, shift: true, raw: true, debug: false, default_num_ctx: 4096,
        first_logits: i < firstLogits,
      };
      worker.postMessage({ type: 'generate', json: JSON.stringify(job) });
      let text = '', last = null;
      const pieces = [];
      for (;;) {
        const m = await next();
        if (m.type === 'logits') logits.push(Array.from(m.values));
        if (m.type === 'piece') pieces.push(m.text);
        if (m.type === 'chunk') { last = JSON.parse(m.json); text += last.response ?? ''; }
        if (m.type === 'done') break;
      }
      if (!last?.done) throw new Error('the worker ended without a final chunk: ' + JSON.stringify(last));
      runs.push({
        prompt_n: last.prompt_eval_count, prompt_ms: last.prompt_eval_duration / 1e6,
        gen_n: last.eval_count, gen_ms: last.eval_duration / 1e6,
        done_reason: last.done_reason, text, pieces,
      });
    }
    return { loaded, runs, logits };
  } finally {
    worker.terminate();
  }
};
`;

/**
 * Serves a page with `script` (a module, after WORKER_SCRIPT) and the
 * release build, the files of `models` ({name: path}) and of `links`
 * ({name: path}) linked in a temporary folder; with `isolated`, every
 * answer carries COOP and COEP, so the page is cross-origin isolated (the
 * threaded worker needs it). Returns the server and `close()`.
 */
export async function startWorkerPage({ script = '', models = {}, links = {}, isolated = false } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'promptscope-worker-page-'));
  await symlink(DIST, path.join(dir, 'app'));
  await mkdir(path.join(dir, 'models'));
  for (const [name, file] of Object.entries(models)) await symlink(file, path.join(dir, 'models', name));
  for (const [name, file] of Object.entries(links)) await symlink(file, path.join(dir, name));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html>\n<meta charset="utf-8">\n<title>Promptscope worker</title>\n<link rel="icon" href="data:,">\n<script type="module">\n${WORKER_SCRIPT}\n${script}\nwindow.pageReady = true;\n</script>\n`,
  );
  const server = await startStaticServer(dir, { isolated });
  return {
    server,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Where two texts first differ, for a message. */
export function firstDifference(a, b) {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return `at character ${at}: browser ${JSON.stringify(a.slice(at, at + 40))}, llama.cpp ${JSON.stringify(b.slice(at, at + 40))}`;
}

/**
 * Whether a worker run `r` (from promptscopeRuns) gives a greedy golden `g`
 * (prompt_ids, generated_ids, text: llama.cpp's): `null`, or what differs.
 * The same prompt token count; then either every token (done_reason
 * `length`) and the whole text, or a stop at an end-of-generation token:
 * no more tokens than llama.cpp's, and the text before it, which
 * llama.cpp's goes on from (the goldens run past the end).
 */
export function greedyDifference(g, r) {
  if (r.prompt_n !== g.prompt_ids.length) return `${r.prompt_n} prompt tokens, llama.cpp ${g.prompt_ids.length}`;
  if (r.done_reason === 'length') {
    if (r.gen_n === g.generated_ids.length && r.text === g.text) return null;
    return `${r.gen_n} tokens, ${firstDifference(r.text, g.text)}`;
  }
  if (r.done_reason === 'stop' && r.gen_n <= g.generated_ids.length && g.text.startsWith(r.text) && r.text !== g.text)
    return null;
  return `done_reason ${r.done_reason} after ${r.gen_n} tokens, ${firstDifference(r.text, g.text)}`;
}
