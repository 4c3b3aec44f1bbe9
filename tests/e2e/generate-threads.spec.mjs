// The threaded generation worker (`generate-worker-threads`: relaxed SIMD
// with wasm threads, built by scripts/build-threaded-worker.sh) in a page
// served with COOP and COEP, so cross-origin isolated: it starts its pool
// (the runner line says how many threads), and its greedy answers are the
// single-threaded relaxed build's token for token (prompt and generated
// counts, done reason, every piece) on every prompt of the model's greedy
// goldens, with 2 and with 3 threads (the tiles split differently), and so
// llama.cpp's too. SmolLM2 Q4_1 and Gemma 3 270M Q4_K_M, from
// scripts/fetch-models.sh (missing: the test fails saying so).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { openBrowser } from './support/browser.mjs';
import { MODEL_CACHE } from './support/fixtures.mjs';
import { DIST, ROOT, assertClean } from './support/harness.mjs';
import { greedyDifference, startWorkerPage } from './support/worker-page.mjs';

const GOLDENS = path.join(ROOT, 'crates/inference/tests/golden');
const N_CTX = 2048;
// the longest first (the two run at once, below)
const CASES = [
  ['gemma-3-270m-q4_k_m.gguf', 'gemma3-270m-q4_k_m-greedy.jsonl'],
  ['SmolLM2-135M-Instruct.Q4_1.gguf', 'smollm2-greedy.jsonl'],
];
const SINGLE = 'generate-worker-relaxed';
const THREADED = 'generate-worker-threads';
const KERNELS = 'wasm relaxed-simd (fused multiply-add)';

let page;
before(async () => {
  for (const build of [SINGLE, THREADED]) {
    assert.ok(
      existsSync(path.join(DIST, `${build}_loader.js`)),
      `${DIST} has no ${build}: run \`trunk build --release\` (its hook runs scripts/build-threaded-worker.sh)`,
    );
  }
  const models = {};
  for (const [model] of CASES) {
    const file = path.join(MODEL_CACHE, model);
    if (existsSync(file)) models[model] = file;
  }
  page = await startWorkerPage({ models, isolated: true });
});
after(async () => {
  await page?.close();
});

/** What must not depend on the thread count: everything but the timings. */
const answer = (r) => ({
  prompt_n: r.prompt_n,
  gen_n: r.gen_n,
  done_reason: r.done_reason,
  text: r.text,
  pieces: r.pieces,
});

// Both models at once, each in its own browser: the single-threaded
// reference runs on one core, and nothing here depends on the timings.
describe('the threaded worker in a cross-origin isolated page', { concurrency: 2 }, () => {
  for (const [model, golden] of CASES) {
    test(`${model}: threads give the single-threaded build's tokens`, { timeout: 600_000 }, async () => {
      const file = path.join(MODEL_CACHE, model);
      assert.ok(existsSync(file), `missing test model ${file}: run \`bash scripts/fetch-models.sh\``);
      const goldens = readFileSync(path.join(GOLDENS, golden), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const prompts = goldens.map((g) => g.prompt);
      const nGen = Math.max(...goldens.map((g) => g.generated_ids.length));
      assert.ok(prompts.length >= 3, `${golden} has ${prompts.length} prompts`);
      const browser = await openBrowser();
      try {
        await browser.page.goto(page.server.url);
        await browser.page.waitForFunction(() => window.pageReady);
        const env = await browser.page.evaluate(() => ({
          isolated: window.crossOriginIsolated,
          sab: typeof SharedArrayBuffer === 'function',
        }));
        assert.deepEqual(env, { isolated: true, sab: true }, 'the page is cross-origin isolated');
        const run = async (build, threads) => {
          try {
            return await browser.page.evaluate((a) => window.promptscopeRuns(...a), [
              model,
              prompts,
              nGen,
              N_CTX,
              build,
              threads,
            ]);
          } catch (e) {
            assert.fail(`${model} did not run in ${build}: ${e.message.replace(/^page\.evaluate: (Error: )?/, '').split('\n')[0]}`);
          }
        };
        const single = await run(SINGLE);
        assert.ok(single.loaded.runner.endsWith(`CPU ${KERNELS}, 1 thread`), single.loaded.runner);
        for (const threads of [2, 3]) {
          const threaded = await run(THREADED, threads);
          console.log(`generate-threads: ${model} (${threads} threads): ${threaded.loaded.runner}`);
          assert.ok(
            threaded.loaded.runner.endsWith(`CPU ${KERNELS}, ${threads} threads`),
            `the runner line names the pool: ${threaded.loaded.runner}`,
          );
          assert.equal(threaded.runs.length, prompts.length);
          for (const [i, r] of threaded.runs.entries()) {
            const s = single.runs[i];
            const what = `${model}, ${threads} threads, prompt ${i + 1} (${JSON.stringify(prompts[i].slice(0, 30))})`;
            assert.deepEqual(answer(r), answer(s), `${what}: the threaded answer differs from the single-threaded one`);
            assert.equal(greedyDifference(goldens[i], r), null, `${what} differs from llama.cpp`);
          }
        }
        assertClean(browser, [page.server.origin]);
      } finally {
        await browser.close();
      }
    });
  }
});
