// Prompt-evaluation and generation speed in headless Chromium (wasm):
// Promptscope's generation workers on one thread (the relaxed-SIMD build
// and the simd128 build) and on THREADS threads (the threaded build, which
// the Generate pane runs where the page is cross-origin isolated) against
// wllama (llama.cpp compiled to wasm, npm @wllama/wllama: one wasm, which
// runs multi-threaded where the page is isolated) on one thread and on
// THREADS threads, in the same page and run, and all against native
// llama.cpp (llama-cpp-python, one thread) measured in the same run, for
// SmolLM2-135M-Instruct Q4_1 and, when they are in the model cache,
// SmolLM2 Q4_K_M and Q8_0 and Gemma 3 270M Q4_K_M. The native side of
// Promptscope is `cargo bench -p promptscope-inference --bench generate`,
// with the same prompt (crates/inference/benches/prompt.txt).
//
//   trunk build --release && node tests/bench/generate-wasm.mjs [MODEL.gguf ...]
//
// Each engine evaluates the prompt and then generates N_GEN tokens greedily
// (Promptscope: temperature 0; wllama: temp 0 and top_k 1), RUNS times; the
// best run counts. Both report their own timings: the worker's final chunk
// (Ollama's prompt_eval_duration and eval_duration) and wllama's
// llama-server timings (prompt_ms and predicted_ms). Neither counts
// loading. The page is served with COOP and COEP, so it is cross-origin
// isolated (as the app is, through its service worker): the single-thread
// rows are Promptscope's single-threaded builds and wllama with n_threads
// 1; the threaded rows Promptscope's threaded build with a pool of THREADS
// and wllama with n_threads THREADS (and n_gpu_layers 0); each is compared
// with its like. The prompt token counts are printed (they must agree:
// both add BOS as llama.cpp does), and the threaded build's text must be
// the single-threaded one's. A model that does not load in one engine is
// reported and the others still run.
//
// WebGPU rows: the browser is started with WebGPU (SwiftShader, or the
// machine's GPU with PROMPTSCOPE_WEBGPU_ADAPTER=default); Promptscope's
// GPU path (the WebGPU engine) beside wllama with every layer on
// llama.cpp's WebGPU backend (n_gpu_layers 999), PROMPTSCOPE_BENCH_GPU_RUNS
// runs each (default 1); PROMPTSCOPE_BENCH_GPU=0 leaves them out.
//
// The models come from the model cache that scripts/fetch-models.sh fills
// ($PROMPTSCOPE_CACHE), or the paths given; llama.cpp from
// $PROMPTSCOPE_LLAMA_PYTHON or ~/.cache/promptscope/venv-llama/bin/python
// (skipped when absent).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openBrowser } from '../e2e/support/browser.mjs';
import { DIST, ROOT } from '../e2e/support/harness.mjs';
import { greedyDifference, startWorkerPage } from '../e2e/support/worker-page.mjs';

// the threads of the threaded rows (Promptscope's pool, wllama's n_threads)
const THREADS = 2;
// the generation worker builds and their threads; the first is the one
// Chromium's Generate pane runs where the page is not isolated, the last
// where it is
const BUILDS = [
  ['generate-worker-relaxed', 'promptscope relaxed (wasm)', 1],
  ['generate-worker', 'promptscope simd128 (wasm)', 1],
  ['generate-worker-threads', `promptscope ${THREADS} threads (wasm)`, THREADS],
];
const N_GEN = 64;
const RUNS = 3;
// the WebGPU rows (PROMPTSCOPE_BENCH_GPU=0 leaves them out): runs each, on
// the adapter webgpuArgs() gives (SwiftShader, or the machine's GPU with
// PROMPTSCOPE_WEBGPU_ADAPTER=default)
const GPU = process.env.PROMPTSCOPE_BENCH_GPU !== '0';
const GPU_RUNS = Number(process.env.PROMPTSCOPE_BENCH_GPU_RUNS ?? 1);
const N_CTX = 1024;
const BENCHES = path.join(ROOT, 'crates/inference/benches');
const PROMPT = readFileSync(path.join(BENCHES, 'prompt.txt'), 'utf8');
const CACHE = process.env.PROMPTSCOPE_CACHE ?? path.join(os.homedir(), '.cache/promptscope/models');
const SMOL = process.env.PROMPTSCOPE_SMOLLM2 ?? path.join(CACHE, 'SmolLM2-135M-Instruct.Q4_1.gguf');
// the other files, run when present
const OPTIONAL = ['SmolLM2-135M-Instruct.Q4_K_M.gguf', 'SmolLM2-135M-Instruct.Q8_0.gguf', 'gemma-3-270m-q4_k_m.gguf'];
// SmolLM2 Q4_1's greedy goldens, checked in the same page
const GOLDENS = path.join(ROOT, 'crates/inference/tests/golden/smollm2-greedy.jsonl');
const WLLAMA = path.join(ROOT, 'node_modules/@wllama/wllama/esm');
const LLAMA_PYTHON =
  process.env.PROMPTSCOPE_LLAMA_PYTHON ?? path.join(os.homedir(), '.cache/promptscope/venv-llama/bin/python');

// wllama in the same page: llama.cpp's server context in wasm, on
// nThreads threads, the CPU only or (gpuLayers > 0) with llama.cpp's
// WebGPU backend for that many layers. Returns {prompt_n, prompt_ms, gen_n,
// gen_ms, text, multi, threads} per run.
const WLLAMA_SCRIPT = `
import { Wllama } from './wllama/index.js';

window.wllamaRuns = async (model, prompt, nGen, nCtx, runs, nThreads, gpuLayers = 0) => {
  // 3.13 ships one wasm (esm/wasm/wllama.wasm); it runs multi-threaded
  // where the page is cross-origin isolated
  const w = new Wllama({ default: './wllama/wasm/wllama.wasm' }, { suppressNativeLog: true });
  const blob = await (await fetch('./models/' + model)).blob();
  await w.loadModel([new File([blob], model)], {
    n_threads: nThreads, n_gpu_layers: gpuLayers, n_ctx: nCtx, n_batch: 512, warmup: false,
  });
  const multi = w.isMultithread();
  const threads = w.getNumThreads();
  const results = [];
  try {
    for (let i = 0; i < runs; i++) {
      const r = await w.createCompletion({
        // greedy: temperature 0 (OpenAI's name) and temp 0, top_k 1 (llama.cpp's)
        prompt, max_tokens: nGen, temperature: 0, temp: 0, top_k: 1, cache_prompt: false, ignore_eos: true,
      });
      const t = r.timings;
      results.push({
        prompt_n: t.prompt_n, prompt_ms: t.prompt_ms, gen_n: t.predicted_n, gen_ms: t.predicted_ms,
        text: r.choices[0].text, multi, threads,
      });
    }
  } finally {
    await w.exit();
  }
  return results;
};
`;

function best(results) {
  const pp = Math.max(...results.map((r) => (r.prompt_n * 1000) / r.prompt_ms));
  const tg = Math.max(...results.map((r) => (r.gen_n * 1000) / r.gen_ms));
  return { pp, tg, prompt_n: results[0].prompt_n, gen_n: results[0].gen_n, text: results[0].text };
}

function llamaCpp(file) {
  if (!existsSync(LLAMA_PYTHON)) return null;
  const out = spawnSync(
    LLAMA_PYTHON,
    [path.join(BENCHES, 'llama_cpp_speed.py'), file, '0', String(N_GEN), String(RUNS)],
    { input: PROMPT, encoding: 'utf8' },
  );
  if (out.status !== 0) {
    console.log(`  llama.cpp failed: ${out.stderr.trim().split('\n').pop()}`);
    return null;
  }
  const [pp, tg, n] = out.stdout.trim().split(/\s+/).map(Number);
  return { pp, tg, prompt_n: n, gen_n: N_GEN };
}

const row = (name, r) =>
  `  ${name.padEnd(36)} prompt eval ${r.pp.toFixed(1).padStart(7)} tok/s (${r.prompt_n} tokens)   ` +
  `generation ${r.tg.toFixed(1).padStart(6)} tok/s (${r.gen_n} tokens)`;
const ratio = (name, a, b) =>
  `  ${name.padEnd(36)} prompt eval ${(a.pp / b.pp).toFixed(2).padStart(7)}x${' '.repeat(18)}` +
  `generation ${(a.tg / b.tg).toFixed(2).padStart(6)}x`;
const why = (e) => e.message.replace(/^page\.evaluate: (Error: )?/, '').split('\n')[0];

async function bench(page, file, version) {
  const name = path.basename(file);
  console.log(`\n${name}: greedy, ${N_GEN} tokens after the prompt, best of ${RUNS}`);
  // every worker build: relaxed SIMD and simd128 on one thread, threads
  const builds = {};
  for (const [build, label, threads] of BUILDS) {
    try {
      const r = await page.evaluate((a) => window.promptscopeRuns(...a), [
        name, Array(RUNS).fill(PROMPT), N_GEN, N_CTX, build, threads,
      ]);
      console.log(`  ${label} runs: ${r.loaded.runner}`);
      builds[label] = best(r.runs);
      console.log(row(label, builds[label]));
    } catch (e) {
      console.log(`  ${label}: did not run: ${why(e)}`);
    }
  }
  // WebGPU: Promptscope's GPU path (the relaxed worker, WebGPU required)
  // and wllama with every layer on llama.cpp's WebGPU backend, on the
  // page's adapter; GPU_RUNS runs each (SwiftShader is slow)
  let ourGpu = null;
  let theirGpu = null;
  if (GPU) {
    try {
      const r = await page.evaluate((a) => window.promptscopeRuns(...a), [
        name, Array(GPU_RUNS).fill(PROMPT), N_GEN, N_CTX, 'generate-worker-relaxed', 1, 'require',
      ]);
      console.log(`  promptscope WebGPU runs: ${r.loaded.runner.replace(/\(features: [^)]*\)/, '(…)')}`);
      ourGpu = best(r.runs);
      console.log(row('promptscope WebGPU', ourGpu));
      const cpu = builds[BUILDS[0][1]];
      if (cpu) console.log(`  WebGPU text ${ourGpu.text === cpu.text ? 'is' : 'is NOT'} the CPU path's (${ourGpu.gen_n} tokens)`);
    } catch (e) {
      console.log(`  promptscope WebGPU: did not run: ${why(e)}`);
    }
    try {
      const r = await page.evaluate((a) => window.wllamaRuns(...a), [name, PROMPT, N_GEN, N_CTX, GPU_RUNS, 1, 999]);
      theirGpu = best(r);
      console.log(row(`wllama ${version} WebGPU`, theirGpu));
    } catch (e) {
      console.log(`  wllama ${version} WebGPU: did not run: ${why(e)}`);
    }
  }
  // wllama on one thread and on THREADS threads
  const wllama = {};
  for (const threads of [1, THREADS]) {
    const label = `wllama ${version} ${threads === 1 ? '1 thread' : `${threads} threads`} (wasm)`;
    try {
      const r = await page.evaluate((a) => window.wllamaRuns(...a), [name, PROMPT, N_GEN, N_CTX, RUNS, threads]);
      wllama[threads] = best(r);
      console.log(row(label, wllama[threads]) + (r[0].multi ? ', multi-thread build' : ', single-thread build') + `, ${r[0].threads} thread(s)`);
    } catch (e) {
      console.log(`  ${label}: did not run: ${why(e)}`);
    }
  }
  const native = llamaCpp(file);
  if (native) console.log(row('llama.cpp (native)', native));
  else console.log('  llama.cpp (native): not available (set PROMPTSCOPE_LLAMA_PYTHON to a Python with llama_cpp)');
  // each build against wllama on as many threads
  for (const [, label, threads] of BUILDS) {
    const r = builds[label];
    const theirs = wllama[threads];
    if (r && theirs) console.log(ratio(`${label.replace(' (wasm)', '')} / wllama ${threads}t`, r, theirs));
  }
  const single = builds[BUILDS[0][1]];
  const threaded = builds[BUILDS[2][1]];
  if (single && threaded) {
    console.log(ratio(`${THREADS} threads / 1 thread`, threaded, single));
    console.log(
      threaded.text === single.text && threaded.gen_n === single.gen_n && threaded.prompt_n === single.prompt_n
        ? `  threads: the same ${threaded.gen_n} tokens as one thread (${threaded.text.length} characters)`
        : `  threads: NOT the single-threaded answer (${threaded.gen_n} vs ${single.gen_n} tokens)`,
    );
  }
  if (wllama[1] && wllama[THREADS]) console.log(ratio(`wllama ${THREADS} threads / 1 thread`, wllama[THREADS], wllama[1]));
  if (ourGpu && theirGpu) console.log(ratio('promptscope WebGPU / wllama WebGPU', ourGpu, theirGpu));
  if (ourGpu && builds[BUILDS[0][1]]) console.log(ratio('promptscope WebGPU / relaxed CPU', ourGpu, builds[BUILDS[0][1]]));
  const ours = single;
  const theirs = wllama[1];
  if (ours && theirs) {
    if (ours.prompt_n !== theirs.prompt_n)
      console.log(`  prompt tokens differ: promptscope ${ours.prompt_n}, wllama ${theirs.prompt_n}`);
    else console.log(`  same prompt: ${ours.prompt_n} tokens in both`);
    let at = 0;
    while (at < ours.text.length && ours.text[at] === theirs.text[at]) at++;
    console.log(
      ours.text === theirs.text.slice(0, ours.text.length)
        ? `  greedy text: wllama agrees with promptscope (${ours.text.length} characters)`
        : `  greedy text: wllama agrees with promptscope for ${at} of ${ours.text.length} characters`,
    );
  }
  for (const [label, r] of Object.entries(builds)) {
    if (native) console.log(ratio(`${label.replace(' (wasm)', '')} / llama.cpp`, r, native));
  }
  if (native && theirs) console.log(ratio('wllama 1t / llama.cpp', theirs, native));
  if (process.env.VERBOSE) console.log(JSON.stringify({ ours: ours?.text, theirs: theirs?.text }, null, 1));
}

async function main() {
  const given = process.argv.slice(2);
  const files = given.length
    ? given
    : [SMOL, ...OPTIONAL.map((f) => path.join(CACHE, f)).filter((f) => existsSync(f))];
  for (const [what, file] of [
    ['the release build (trunk build --release)', path.join(DIST, 'generate-worker_loader.js')],
    ['the threaded worker (trunk build --release runs scripts/build-threaded-worker.sh)', path.join(DIST, 'generate-worker-threads_loader.js')],
    ['@wllama/wllama (npm ci)', path.join(WLLAMA, 'index.js')],
    ...files.map((f) => ['a model (scripts/fetch-models.sh)', f]),
  ]) {
    if (!existsSync(file)) {
      console.log(`generate-wasm benchmark skipped: ${what} is missing: ${file}`);
      return;
    }
  }
  const version = JSON.parse(readFileSync(path.join(WLLAMA, '../package.json'), 'utf8')).version;
  const models = Object.fromEntries(files.map((f) => [path.basename(f), f]));
  const served = await startWorkerPage({ script: WLLAMA_SCRIPT, models, links: { wllama: WLLAMA }, isolated: true });
  const browser = await openBrowser({ webgpu: GPU });
  try {
    await browser.page.goto(served.server.url);
    await browser.page.waitForFunction(() => window.pageReady);
    const isolated = await browser.page.evaluate(() => window.crossOriginIsolated);
    console.log(`Chromium ${browser.page.context().browser()?.version() ?? ''}, cross-origin isolated: ${isolated}`);
    if (GPU) {
      const adapter = await browser.page.evaluate(async () => {
        const a = await navigator.gpu?.requestAdapter();
        return a ? `${a.info.vendor} ${a.info.architecture} ${a.info.description}`.trim() + (a.info.isFallbackAdapter ? ' (fallback)' : '') : null;
      });
      console.log(`WebGPU adapter: ${adapter ?? 'none'}`);
    }
    for (const file of files) await bench(browser.page, file, version);
    // greedy agreement with llama.cpp (native, AVX2) on SmolLM2 Q4_1's goldens
    if (models[path.basename(SMOL)]) {
      const goldens = readFileSync(GOLDENS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const { runs } = await browser.page.evaluate(
        (a) => window.promptscopeRuns(...a),
        [path.basename(SMOL), goldens.map((g) => g.prompt), 32, N_CTX, BUILDS[0][0]],
      );
      const agree = goldens.filter((g, i) => greedyDifference(g, runs[i]) === null).length;
      console.log(`\ngreedy text: promptscope (wasm) matches llama.cpp's first 32 tokens on ${agree} of ${goldens.length} SmolLM2 Q4_1 goldens (tests/e2e/generate-greedy.spec.mjs checks every file)`);
    }
    const foreign = browser.requests.filter((u) => !u.startsWith(served.server.origin) && !/^(blob|data):/.test(u));
    if (foreign.length) console.log(`requests to other origins (there must be none): ${foreign.join(', ')}`);
    if (browser.problems.length) console.log(`page problems: ${browser.problems.join('; ')}`);
  } finally {
    await browser.close();
    await served.close();
  }
}

await main();
