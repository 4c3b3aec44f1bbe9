// Generation on WebGPU (headless Chromium on SwiftShader's adapter: the
// flags of support/browser.mjs's webgpuArgs; PROMPTSCOPE_WEBGPU_ADAPTER=
// default uses the machine's GPU).
//
// 1. The Generate pane with the WebGPU engine: SmolLM2 answers with
//    Ollama's chunks and llama.cpp's counts, the runner line names the
//    adapter, and a long answer stops on Stop.
// 2. The generation worker directly: on SmolLM2 Q4_1's ten greedy goldens
//    the WebGPU path's greedy tokens equal the CPU path's on at least 8 of
//    10 prompts (the issue's bar; all 10 are), and the first step's logits
//    of a few prompts are the CPU's bit for bit (every kind in this file,
//    Q4_1, Q8_0 and F32, computes the CPU's bits on the GPU; a file with
//    K-quants would move them slightly, see crates/gpu); the differing
//    values and the largest move are printed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { smollm2 } from './support/fixtures.mjs';
import { ROOT, assertClean, useAppServer } from './support/harness.mjs';
import { startWorkerPage } from './support/worker-page.mjs';

const server = useAppServer();
const GOLDENS = path.join(ROOT, 'crates/inference/tests/golden/smollm2-greedy.jsonl');
const N_CTX = 2048;
// the greedy agreement the issue asks of the GPU path, and the first
// step's logits: the largest |Δ| over the largest |logit|
const MIN_AGREE = 8;
const LOGITS_OF = 3;
// greedy tokens a prompt (SwiftShader runs SmolLM2 at about 1 token/s)
const N_GEN = 8;

function request(user, options) {
  return JSON.stringify({
    model: 'smollm2',
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: user },
    ],
    options,
  });
}

describe('Generate on WebGPU', { skip: process.env.PROMPTSCOPE_SKIP_PANE ? 'asked' : false }, () => {
  test('the pane: WebGPU chosen, chunks, counts, the adapter, stop', { timeout: 600_000 }, async () => {
    const browser = await openBrowser({ webgpu: true });
    try {
      const app = new AppPage(browser.page);
      const page = browser.page;
      await app.open(server().url);
      assert.ok(await page.evaluate(async () => !!(await navigator.gpu?.requestAdapter())), 'the page has a WebGPU adapter');
      await app.loadExample('chatml');
      await app.hasTemplate.uncheck();
      await page.getByTestId('gguf-input').setInputFiles(smollm2());
      await eventually(async () => assert.match(await page.getByTestId('gguf-status').textContent(), /read .* of /), {
        timeout: 60_000,
      });
      await page.getByTestId('generate-engine').selectOption('webgpu');
      await app.requestInput.fill(request('What is the capital of Japan?', { temperature: 0, num_predict: 64 }));
      await eventually(async () => assert.match(await app.tokenCount.textContent(), /^27 tokens/));
      const status = page.getByTestId('generate-status');
      await page.getByTestId('generate-run').click();
      await eventually(async () => assert.equal(await status.getAttribute('data-state'), 'done'), { timeout: 300_000 });
      const runner = await page.getByTestId('generate-runner').textContent();
      assert.match(
        runner,
        /^llama · Q4_1 ×210, F32 ×61, Q8_0 ×1 · Promptscope's decoder · WebGPU .+ \(features: .+\) · (the adapter's fused multiply-add \(probed exact\)|an emulated fused multiply-add \(the adapter's may round twice\)) · \d+ MiB of weights on the GPU, KV cache for \d+ tokens$/,
      );
      console.log(`generate-webgpu: ${runner}`);
      assert.equal(await page.getByTestId('generate-output').textContent(), 'The capital of Japan is Tokyo.');
      let lines = (await page.getByTestId('generate-json').textContent()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const last = lines.at(-1);
      assert.equal(last.done, true);
      assert.equal(last.done_reason, 'stop');
      assert.equal(last.prompt_eval_count, 27);
      assert.equal(last.eval_count, 8);
      assert.ok(last.eval_duration > 0 && last.prompt_eval_duration > 0);

      // a long answer, stopped by the user: the counts are those it ran
      await app.requestInput.fill(request('Tell me a very long story about a dragon and a knight.', { temperature: 0, num_predict: 1500 }));
      await page.getByTestId('generate-run').click();
      await eventually(async () => assert.ok((await page.getByTestId('generate-output').textContent()).length > 40), {
        timeout: 300_000,
      });
      await page.getByTestId('generate-stop').click();
      await eventually(async () => assert.equal(await status.getAttribute('data-state'), 'done'), { timeout: 120_000 });
      lines = (await page.getByTestId('generate-json').textContent()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const stopped = lines.at(-1);
      assert.equal(stopped.done_reason, 'stop');
      assert.ok(stopped.eval_count > 5 && stopped.eval_count < 1500, `eval_count ${stopped.eval_count}`);
      // every streamed piece was counted: the text's chunks are eval_count − 1
      // pieces at most (the last token may hold text back)
      assert.ok(lines.length - 1 <= stopped.eval_count, `${lines.length - 1} chunks for ${stopped.eval_count} tokens`);
      assertClean(browser, [server().origin]);
    } finally {
      await browser.close();
    }
  });
});

describe('the WebGPU path against the CPU path', () => {
  let page;
  before(async () => {
    page = await startWorkerPage({ models: { 'smollm2.gguf': smollm2() } });
  });
  after(async () => {
    await page?.close();
  });

  test(`SmolLM2 Q4_1: greedy equal on at least ${MIN_AGREE} of 10 prompts`, { timeout: 900_000 }, async () => {
    const goldens = readFileSync(GOLDENS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const browser = await openBrowser({ webgpu: true });
    try {
      await browser.page.goto(page.server.url);
      await browser.page.waitForFunction(() => window.pageReady);
      const prompts = goldens.map((g) => g.prompt);
      // the first step's logits of the first prompts, as their generations
      // evaluate them
      const run = (gpu) =>
        browser.page.evaluate((a) => window.promptscopeRuns(...a), ['smollm2.gguf', prompts, N_GEN, N_CTX, 'generate-worker-relaxed', 1, gpu, null, undefined, LOGITS_OF]);
      const gpu = await run('require');
      const cpu = await run('off');
      assert.match(gpu.loaded.runner, / · WebGPU /);
      assert.equal(gpu.loaded.engine, 'webgpu');
      assert.equal(cpu.loaded.engine, 'cpu');
      assert.equal(gpu.logits.length, LOGITS_OF);
      assert.equal(cpu.logits.length, LOGITS_OF);
      let agree = 0;
      const report = [];
      const moves = [];
      for (let i = 0; i < prompts.length; i++) {
        const [g, c] = [gpu.runs[i], cpu.runs[i]];
        assert.equal(g.prompt_n, c.prompt_n, `prompt ${i + 1}: prompt tokens`);
        assert.equal(g.prompt_n, goldens[i].prompt_ids.length, `prompt ${i + 1}: llama.cpp's prompt tokens`);
        const same = g.text === c.text && g.gen_n === c.gen_n;
        if (same) agree++;
        let line = `prompt ${i + 1}: ${same ? `same ${N_GEN} tokens` : `differs at character ${[...g.text].findIndex((ch, j) => ch !== [...c.text][j])}`}`;
        if (i < LOGITS_OF) {
          const [gl, cl] = [gpu.logits[i], cpu.logits[i]];
          assert.equal(gl.length, cl.length);
          const top = Math.max(...cl.map(Math.abs));
          const move = Math.max(...gl.map((v, j) => Math.abs(v - cl[j]))) / top;
          const differ = gl.filter((v, j) => v !== cl[j]).length;
          line += `, first-step logits: ${differ} of ${cl.length} differ, the largest move ${move.toExponential(2)} of the largest |logit|`;
          moves.push(differ);
        }
        report.push(line);
      }
      console.log(`generate-webgpu: ${gpu.loaded.runner}\n  ${report.join('\n  ')}\n  greedy agreement: ${agree} of ${prompts.length}`);
      for (const [i, differ] of moves.entries()) {
        assert.equal(differ, 0, `prompt ${i + 1}: ${differ} logits are not the CPU's bits`);
      }
      assert.ok(agree >= MIN_AGREE, `greedy text equal on ${agree} of ${prompts.length} prompts`);
      assertClean(browser, [page.server.origin]);
    } finally {
      await browser.close();
    }
  });
});
