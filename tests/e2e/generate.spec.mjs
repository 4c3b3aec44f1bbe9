// The Generate pane: SmolLM2 chosen in the Model pane is loaded by the
// generation worker (fetched only now), answers with Ollama's chunks
// (greedy: llama.cpp's text and counts), and a long answer stops on Stop.
// While it loads the pane shows the bytes read and a progress bar; once
// loaded, what runs where (architecture, tensor types, graph, CPU,
// threads, and why not WebGPU).
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { smollm2 } from './support/fixtures.mjs';
import { useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

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

async function chunks(app) {
  const text = await app.page.getByTestId('generate-json').textContent();
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

describe('Generate', () => {
  test('SmolLM2 in a worker: streamed chunks, counts, stop', { timeout: 400_000 }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      const workerRequests = [];
      page.on('request', (r) => {
        if (r.url().includes('generate-worker')) workerRequests.push(r.url());
      });
      await app.loadExample('chatml');
      await app.hasTemplate.uncheck();
      await page.getByTestId('gguf-input').setInputFiles(smollm2());
      await eventually(async () => assert.match(await page.getByTestId('gguf-status').textContent(), /read .* of /), {
        timeout: 60_000,
      });
      await app.requestInput.fill(request('What is the capital of Japan?', { temperature: 0, num_predict: 64 }));
      await eventually(async () =>
        assert.equal(
          await app.promptOutput.textContent(),
          '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhat is the capital of Japan?<|im_end|>\n<|im_start|>assistant\n',
        ),
      );
      assert.equal(workerRequests.length, 0, 'the worker is not fetched before it is needed');
      // the dry run's count is llama.cpp's (recorded with llama-cpp-python 0.3.36)
      await eventually(async () => assert.match(await app.tokenCount.textContent(), /^27 tokens/));

      const status = page.getByTestId('generate-status');
      assert.equal(await page.getByTestId('generate-runner').isHidden(), true, 'no runner before a model is loaded');
      // an empty output box says so in words
      assert.equal(
        await page.getByTestId('generate-output').evaluate((el) => getComputedStyle(el, '::before').content),
        '"(empty)"',
      );
      // with a GGUF chosen, the pane does not ask for one any more
      assert.equal(
        await status.textContent(),
        `${smollm2().split('/').at(-1)} is chosen in the Model pane: Generate runs it on this request.`,
      );
      // every status text and progress bar state while it loads
      await page.evaluate(() => {
        window.loadingSeen = [];
        const status = document.querySelector('[data-testid=generate-status]');
        const bar = document.querySelector('[data-testid=generate-progress]');
        const note = () => {
          if (status.dataset.state === 'loading')
            window.loadingSeen.push({ text: status.textContent, value: bar.value, max: bar.max, hidden: bar.hidden });
        };
        new MutationObserver(note).observe(status, { subtree: true, characterData: true, childList: true, attributes: true });
      });
      await page.getByTestId('generate-run').click();
      await eventually(async () => assert.equal(await status.getAttribute('data-state'), 'done'), { timeout: 240_000 });
      assert.ok(workerRequests.length > 0, 'the worker was fetched on demand');
      const seen = await page.evaluate(() => window.loadingSeen);
      const size = statSync(smollm2()).size;
      assert.ok(seen.length >= 2, `loading states seen: ${JSON.stringify(seen)}`);
      for (const s of seen) {
        const m = s.text.match(/^Loading the model: read ([\d.]+) of ([\d.]+) MB \((\d+)%\)$/);
        assert.ok(m, `status while loading: ${s.text}`);
        assert.equal(m[2], (size / 1e6).toFixed(1));
        assert.equal(s.hidden, false, 'the progress bar shows while loading');
        assert.equal(s.max, size);
        assert.ok(Math.abs(s.value / 1e6 - Number(m[1])) < 0.06, `bar ${s.value} for ${s.text}`);
      }
      // read in slices of 8 MiB: part of the file, then all of it
      assert.ok(seen.some((s) => s.value > 0 && s.value < size), JSON.stringify(seen));
      assert.equal(seen.at(-1).text, `Loading the model: read ${(size / 1e6).toFixed(1)} of ${(size / 1e6).toFixed(1)} MB (100%)`);
      assert.equal(await page.getByTestId('generate-progress').isHidden(), true, 'no progress bar once loaded');
      // the tensor types as gguf-py counts them in this file; Auto runs the
      // relaxed-SIMD worker on one thread (this tab is not cross-origin
      // isolated: it was not reloaded for it), and on the CPU (this browser
      // has no WebGPU; generate-webgpu.spec.mjs runs it where it has)
      assert.match(
        await page.getByTestId('generate-runner').textContent(),
        /^llama · Q4_1 ×210, F32 ×61, Q8_0 ×1 · Promptscope's decoder · CPU wasm relaxed-simd \(fused multiply-add\), 1 thread \(WebGPU: this browser offers no WebGPU adapter \(WebGPU is turned off or not supported here\)\)$/,
      );
      assert.doesNotMatch(await page.getByTestId('generate-runner').textContent(), /not requested/, 'no raw wgpu text');
      assert.equal(await page.getByTestId('generate-output').textContent(), 'The capital of Japan is Tokyo.');
      const lines = await chunks(app);
      const last = lines.at(-1);
      for (const c of lines.slice(0, -1)) {
        assert.equal(c.done, false);
        assert.equal(c.message.role, 'assistant');
        assert.equal(c.model, 'smollm2');
      }
      assert.equal(last.done, true);
      assert.equal(last.done_reason, 'stop');
      // llama.cpp's counts for this prompt: 27 prompt tokens, 7 + <|im_end|>
      assert.equal(last.prompt_eval_count, 27);
      assert.equal(last.eval_count, 8);
      assert.ok(last.eval_duration > 0 && last.prompt_eval_duration > 0 && last.total_duration > 0);
      assert.match(await status.textContent(), /eval_count 8 \([\d.]+ tokens\/s\)/);

      // A long answer, stopped by the user.
      await app.requestInput.fill(request('Tell me a very long story about a dragon and a knight.', { temperature: 0, num_predict: 1500 }));
      await page.getByTestId('generate-run').click();
      await eventually(async () => assert.ok((await page.getByTestId('generate-output').textContent()).length > 40), {
        timeout: 120_000,
      });
      await page.getByTestId('generate-stop').click();
      await eventually(async () => assert.equal(await status.getAttribute('data-state'), 'done'), { timeout: 60_000 });
      const stopped = (await chunks(app)).at(-1);
      assert.equal(stopped.done_reason, 'stop');
      assert.ok(stopped.eval_count > 5 && stopped.eval_count < 1500, `eval_count ${stopped.eval_count}`);

      // Through /v1/chat/completions: the route's converted request runs,
      // and the pane shows what the route answers (a chat.completion).
      await page.getByTestId('endpoint-openai-chat').check();
      await app.requestInput.fill(
        JSON.stringify({
          model: 'smollm2',
          messages: [
            { role: 'system', content: 'You are a helpful assistant.' },
            { role: 'user', content: [{ type: 'text', text: 'What is the capital of Japan?' }] },
          ],
          temperature: 0,
          max_tokens: 64,
        }),
      );
      await eventually(async () => assert.match(await app.promptOutput.textContent(), /What is the capital of Japan\?<\|im_end\|>/));
      await page.getByTestId('generate-run').click();
      await eventually(async () => assert.equal(await status.getAttribute('data-state'), 'done'), { timeout: 240_000 });
      const answer = JSON.parse(await page.getByTestId('generate-route').textContent());
      assert.equal(answer.object, 'chat.completion');
      assert.match(answer.id, /^chatcmpl-\d+$/);
      assert.equal(answer.choices[0].message.content, 'The capital of Japan is Tokyo.');
      assert.equal(answer.choices[0].finish_reason, 'stop');
      assert.deepEqual(answer.usage, { prompt_tokens: 27, completion_tokens: 8, total_tokens: 35 });
    });
  });
});
