// Prompt-evaluation and generation speed of SmolLM2-135M-Instruct Q4_1 in
// headless Chromium (wasm, one thread): Promptscope's generation worker
// against wllama (llama.cpp compiled to wasm, npm @wllama/wllama) in the same
// browser, and both against native llama.cpp (llama-cpp-python, one thread)
// measured in the same run. The native side of Promptscope is
// `cargo bench -p promptscope-inference --bench generate`, with the same
// prompt (crates/inference/benches/prompt.txt).
//
//   trunk build --release && node tests/bench/generate-wasm.mjs
//
// Each engine evaluates the prompt and then generates N_GEN tokens greedily,
// RUNS times; the best run counts. Both report their own timings: the
// worker's final chunk (Ollama's prompt_eval_duration and eval_duration) and
// wllama's llama-server timings (prompt_ms and predicted_ms). Neither counts
// loading. Neither page is cross-origin isolated, so both run on one thread,
// as in an embedded iframe.
//
// SmolLM2 comes from $PROMPTSCOPE_SMOLLM2 or the model cache that
// `cargo test` fills; llama.cpp from $PROMPTSCOPE_LLAMA_PYTHON or
// ~/.cache/promptscope/venv-llama/bin/python (skipped when absent).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { openBrowser } from '../e2e/support/browser.mjs';
import { DIST, ROOT } from '../e2e/support/harness.mjs';
import { startStaticServer } from '../e2e/support/static-server.mjs';

const N_GEN = 64;
const RUNS = 3;
const N_CTX = 1024;
const BENCHES = path.join(ROOT, 'crates/inference/benches');
const PROMPT = readFileSync(path.join(BENCHES, 'prompt.txt'), 'utf8');
const GOLDENS = path.join(ROOT, 'crates/inference/tests/golden/smollm2-greedy.jsonl');
const SMOL =
  process.env.PROMPTSCOPE_SMOLLM2 ??
  path.join(os.homedir(), '.cache/promptscope/models/SmolLM2-135M-Instruct.Q4_1.gguf');
const WLLAMA = path.join(ROOT, 'node_modules/@wllama/wllama/esm');
const LLAMA_PYTHON =
  process.env.PROMPTSCOPE_LLAMA_PYTHON ?? path.join(os.homedir(), '.cache/promptscope/venv-llama/bin/python');

// The page drives both engines; each returns {prompt_n, prompt_ms, gen_n, gen_ms, text}.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Promptscope generation benchmark</title>
<script type="module">
import { Wllama } from './wllama/index.js';

async function modelFile() {
  const blob = await (await fetch('./model.gguf')).blob();
  return new File([blob], 'SmolLM2-135M-Instruct.Q4_1.gguf');
}

// Promptscope: the app's generation worker, spoken to as the Generate pane does.
window.promptscope = async (prompt, nGen, nCtx, runs) =>
  (await window.promptscopeRuns(Array(runs).fill(prompt), nGen, nCtx));

// Runs each prompt once (greedy) in one worker.
window.promptscopeRuns = async (prompts, nGen, nCtx) => {
  const worker = new Worker('./app/generate-worker_loader.js');
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
  await until('ready');
  worker.postMessage({ type: 'load', file: await modelFile() });
  await until('loaded');
  const results = [];
  for (const prompt of prompts) {
    const job = {
      endpoint: 'generate', model: 'smollm2', prompt, leading_bos: null,
      options: { temperature: 0, num_predict: nGen, num_ctx: nCtx },
      truncate: true, shift: true, raw: true, debug: false, default_num_ctx: 4096,
    };
    worker.postMessage({ type: 'generate', json: JSON.stringify(job) });
    let text = '', last = null;
    for (;;) {
      const m = await next();
      if (m.type === 'chunk') { last = JSON.parse(m.json); text += last.response ?? ''; }
      if (m.type === 'done') break;
    }
    results.push({
      prompt_n: last.prompt_eval_count, prompt_ms: last.prompt_eval_duration / 1e6,
      gen_n: last.eval_count, gen_ms: last.eval_duration / 1e6, text,
    });
  }
  worker.terminate();
  return results;
};

// wllama: llama.cpp's server context in wasm; n_threads 1 as without isolation.
window.wllama = async (prompt, nGen, nCtx, runs) => {
  const w = new Wllama({ default: './wllama/wasm/wllama.wasm' }, { suppressNativeLog: true });
  await w.loadModel([await modelFile()], { n_threads: 1, n_ctx: nCtx, n_batch: 512, warmup: false });
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await w.createCompletion({
      prompt, max_tokens: nGen, temperature: 0, cache_prompt: false, ignore_eos: true,
    });
    const t = r.timings;
    results.push({
      prompt_n: t.prompt_n, prompt_ms: t.prompt_ms, gen_n: t.predicted_n, gen_ms: t.predicted_ms,
      text: r.choices[0].text,
    });
  }
  await w.exit();
  return results;
};
window.benchReady = true;
</script>
`;

function best(results) {
  const pp = Math.max(...results.map((r) => (r.prompt_n * 1000) / r.prompt_ms));
  const tg = Math.max(...results.map((r) => (r.gen_n * 1000) / r.gen_ms));
  return { pp, tg, prompt_n: results[0].prompt_n, gen_n: results[0].gen_n, text: results[0].text };
}

function llamaCpp() {
  if (!existsSync(LLAMA_PYTHON)) return null;
  const out = spawnSync(
    LLAMA_PYTHON,
    [path.join(BENCHES, 'llama_cpp_speed.py'), SMOL, '0', String(N_GEN), String(RUNS)],
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
  `  ${name.padEnd(24)} prompt eval ${r.pp.toFixed(1).padStart(7)} tok/s (${r.prompt_n} tokens)   ` +
  `generation ${r.tg.toFixed(1).padStart(6)} tok/s (${r.gen_n} tokens)`;
const ratio = (name, a, b) =>
  `  ${name.padEnd(24)} prompt eval ${(a.pp / b.pp).toFixed(2).padStart(7)}x${' '.repeat(18)}` +
  `generation ${(a.tg / b.tg).toFixed(2).padStart(6)}x`;

async function main() {
  for (const [what, file] of [
    ['the release build (trunk build --release)', path.join(DIST, 'generate-worker_loader.js')],
    ['SmolLM2 (cargo test downloads it)', SMOL],
    ['@wllama/wllama (npm ci)', path.join(WLLAMA, 'index.js')],
  ]) {
    if (!existsSync(file)) {
      console.log(`generate-wasm benchmark skipped: ${what} is missing: ${file}`);
      return;
    }
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'promptscope-bench-'));
  await symlink(DIST, path.join(dir, 'app'));
  await symlink(WLLAMA, path.join(dir, 'wllama'));
  await symlink(SMOL, path.join(dir, 'model.gguf'));
  await writeFile(path.join(dir, 'index.html'), PAGE);
  const server = await startStaticServer(dir);
  const browser = await openBrowser();
  let ours, theirs, agree, total;
  try {
    await browser.page.goto(server.url);
    await browser.page.waitForFunction(() => window.benchReady);
    const args = [PROMPT, N_GEN, N_CTX, RUNS];
    ours = best(await browser.page.evaluate((a) => window.promptscope(...a), args));
    theirs = best(await browser.page.evaluate((a) => window.wllama(...a), args));
    // greedy agreement with llama.cpp (native, AVX2) on the recorded goldens
    const goldens = readFileSync(GOLDENS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const texts = await browser.page.evaluate(
      (a) => window.promptscopeRuns(...a),
      [goldens.map((g) => g.prompt), 32, N_CTX],
    );
    // the goldens run past the end-of-generation token; the worker stops there
    const upToEos = (t) => t.split('<|im_end|>')[0];
    agree = goldens.filter((g, i) => texts[i].text === upToEos(g.text)).length;
    if (process.env.VERBOSE) for (const [i, g] of goldens.entries()) console.log(JSON.stringify({ n: texts[i].prompt_n, want: g.prompt_ids.length, ours: texts[i].text, llama: g.text }));
    total = goldens.length;
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  const native = llamaCpp();
  const version = JSON.parse(readFileSync(path.join(WLLAMA, '../package.json'), 'utf8')).version;
  console.log(`SmolLM2-135M-Instruct Q4_1, one thread, greedy, best of ${RUNS}`);
  console.log(row('promptscope (wasm)', ours));
  console.log(row(`wllama ${version} (wasm)`, theirs));
  if (native) console.log(row('llama.cpp (native)', native));
  else console.log('  llama.cpp (native): not available (set PROMPTSCOPE_LLAMA_PYTHON to a Python with llama_cpp)');
  console.log(ratio('promptscope / wllama', ours, theirs));
  if (native) {
    console.log(ratio('promptscope / llama.cpp', ours, native));
    console.log(ratio('wllama / llama.cpp', theirs, native));
  }
  const same = ours.text === theirs.text.slice(0, ours.text.length);
  let at = 0;
  while (at < ours.text.length && ours.text[at] === theirs.text[at]) at++;
  console.log(
    same
      ? `  greedy text: wllama agrees with promptscope`
      : `  greedy text: wllama agrees with promptscope for ${at} of ${ours.text.length} characters`,
  );
  console.log(`  greedy text: promptscope (wasm) matches llama.cpp's first 32 tokens on ${agree} of ${total} goldens`);
  if (process.env.VERBOSE) console.log(JSON.stringify({ ours: ours.text, theirs: theirs.text }, null, 1));
}

await main();
