// Greedy generation in the browser against llama.cpp: both generation
// workers of the release build (`generate-worker`, wasm simd128, and
// `generate-worker-relaxed`, relaxed SIMD; one thread) run every prompt
// of a model's recorded goldens (crates/inference/tests/golden/*-greedy.jsonl:
// prompt, prompt_ids, generated_ids and their text, from llama.cpp's AVX2
// build) through /api/generate raw, greedily, and must give llama.cpp's
// prompt token count and text, up to the end of generation where the
// worker stops (the goldens run on past it).
//
// SmolLM2 Q4_1 and Gemma 3 270M Q4_K_M come from scripts/fetch-models.sh
// (missing: the test fails saying so). The requantized SmolLM2 files
// (Q4_K_M, Q8_0) are made by tools/ and are not in CI: a file absent from
// the model cache has no test here (a line says so).
// $PROMPTSCOPE_GOLDENS reads the goldens from another folder.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { openBrowser } from './support/browser.mjs';
import { MODEL_CACHE } from './support/fixtures.mjs';
import { DIST, ROOT, assertClean } from './support/harness.mjs';
import { greedyDifference, startWorkerPage } from './support/worker-page.mjs';

const GOLDENS = process.env.PROMPTSCOPE_GOLDENS ?? path.join(ROOT, 'crates/inference/tests/golden');
const N_CTX = 2048;

// model file, its goldens, whether scripts/fetch-models.sh provides it;
// the longest first (the tests run two at a time, below)
const CASES = [
  ['gemma-3-270m-q4_k_m.gguf', 'gemma3-270m-q4_k_m-greedy.jsonl', true],
  ['SmolLM2-135M-Instruct.Q4_1.gguf', 'smollm2-greedy.jsonl', true],
  ['SmolLM2-135M-Instruct.Q4_K_M.gguf', 'smollm2-q4_k_m-greedy.jsonl', false],
  ['SmolLM2-135M-Instruct.Q8_0.gguf', 'smollm2-q8_0-greedy.jsonl', false],
];

// each worker binary and the kernels its runner line must name
const BUILDS = [
  ['generate-worker', 'wasm simd128'],
  ['generate-worker-relaxed', 'wasm relaxed-simd (fused multiply-add)'],
];

function goldens(name) {
  const file = path.join(GOLDENS, name);
  assert.ok(
    existsSync(file),
    `missing goldens ${file}: they are recorded from llama.cpp with the tool under tools/ and committed`,
  );
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  for (const [i, g] of lines.entries()) {
    for (const k of ['prompt', 'prompt_ids', 'generated_ids', 'text']) {
      assert.ok(k in g, `${name} line ${i + 1} has no ${k}`);
    }
  }
  return lines;
}

let page;
before(async () => {
  for (const [build] of BUILDS) {
    assert.ok(existsSync(path.join(DIST, `${build}_loader.js`)), `${DIST} has no ${build}: run \`trunk build --release\` first`);
  }
  const models = {};
  for (const [model] of CASES) {
    const file = path.join(MODEL_CACHE, model);
    if (existsSync(file)) models[model] = file;
  }
  page = await startWorkerPage({ models });
});
after(async () => {
  await page?.close();
});

// Two tests at a time, each in its own browser: a worker computes on one
// core (run one by one, the spec left the other core idle for 3 minutes).
describe('greedy generation in the browser matches llama.cpp', { concurrency: 2 }, () => {
  for (const [model, golden, fetched] of CASES) {
    const file = path.join(MODEL_CACHE, model);
    if (!fetched && !existsSync(file)) {
      console.log(`generate-greedy: ${model} is not in the model cache (${MODEL_CACHE}); its goldens are not run`);
      continue;
    }
    for (const [build, kernels] of BUILDS) {
      test(`${model}: ${golden} (${build})`, { timeout: 600_000 }, async () => {
        assert.ok(existsSync(file), `missing test model ${file}: run \`bash scripts/fetch-models.sh\` (scripts/test.sh runs it first)`);
        const cases = goldens(golden);
        const n = Math.max(...cases.map((g) => g.generated_ids.length));
        const browser = await openBrowser();
        try {
          await browser.page.goto(page.server.url);
          await browser.page.waitForFunction(() => window.pageReady);
          let result;
          try {
            result = await browser.page.evaluate(
              (a) => window.promptscopeRuns(...a),
              [model, cases.map((g) => g.prompt), n, N_CTX, build],
            );
          } catch (e) {
            assert.fail(`${model} did not run in the browser's ${build}: ${e.message.replace(/^page\.evaluate: (Error: )?/, '').split('\n')[0]}`);
          }
          console.log(`generate-greedy: ${model} (${build}): ${result.loaded.runner} (loaded in ${Math.round(result.loaded.ms)} ms)`);
          assert.ok(result.loaded.runner.includes(`CPU ${kernels},`), `${build} runs ${result.loaded.runner}, not ${kernels}`);
          const wrong = [];
          for (const [i, g] of cases.entries()) {
            const r = result.runs[i];
            const what = `line ${i + 1} (${JSON.stringify(g.prompt.slice(0, 30))})`;
            const d = greedyDifference(g, r);
            if (d) wrong.push(`${what}: ${d}`);
          }
          assert.deepEqual(wrong, [], `${model} (${build}): ${wrong.length} of ${cases.length} goldens differ in the browser`);
          assertClean(browser, [page.server.origin]);
        } finally {
          await browser.close();
        }
      });
    }
  }
});
