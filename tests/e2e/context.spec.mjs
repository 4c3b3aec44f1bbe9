// Context and cache with a GGUF: the two truncation stages (messages
// dropped to fit num_ctx, then the runner's cut of a prompt still too
// long, marked inside the prompt text), and the cache view on a thinking
// model's renderer (qwen3.5 drops the thinking of earlier turns, so
// llama-server's KV cache stops matching at the earlier reply), each
// against `promptscope render --json` for the same case.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { cliRender } from './support/cli-render.mjs';
import { anyGguf } from './support/fixtures.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();


async function loadGguf(app) {
  await app.page.getByTestId('gguf-input').setInputFiles(anyGguf());
  await eventually(async () => assert.match(await app.page.getByTestId('gguf-status').textContent(), /read .* of /), {
    timeout: 60_000,
  });
}

const words = (n, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

describe('context and cache', () => {
  test('two stages: messages dropped, then the runner cuts the middle, marked in the prompt', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('chatml');
      await app.openMore();
      await app.page.locator('#model-date').fill('2025-06-15');
      await loadGguf(app);
      const body = await app.requestJson();
      body.messages = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: words(30, 'old') },
        { role: 'assistant', content: 'An answer.' },
        { role: 'user', content: words(200) },
      ];
      body.options = { num_ctx: 64 };
      await app.setRequest(body);
      const runnerRow = app.page.getByTestId('explain-runner');
      await eventually(async () => assert.match(await runnerRow.textContent(), /dropped/));
      const cli = await cliRender(app);
      // stage 1: the older turns are dropped, the system message kept
      assert.ok(cli.explain.truncation.first_kept > 1);
      assert.equal(await app.page.getByTestId('dropped-message').count(), 2);
      // stage 2: the runner's cut, as the CLI reports it
      const [from, to] = cli.runner.cut.dropped;
      assert.match(await runnerRow.textContent(), new RegExp(`${from}–${to} dropped`));
      assert.equal(await app.promptText(), cli.prompt);
      // the cut marked inside the prompt: inside the long message
      const cut = app.promptOutput.getByTestId('prompt-cut');
      await eventually(async () => assert.equal(await cut.count(), 1));
      const dropped = await cut.textContent();
      // tokens from the fifth on: the end of the system message, then the
      // start of the long one
      assert.ok(dropped.startsWith(' brief.') && dropped.includes('word1 word2'), dropped);
      assert.ok(cli.prompt.includes(dropped));
      assert.equal(await app.tokenCount.textContent().then((t) => Number(/^(\d+)/.exec(t)[1])), cli.prompt_eval_count);
      console.log(`# num_ctx 64: ${cli.explain.truncation.first_kept - 1} messages dropped, then tokens ${from}–${to} cut (${dropped.length} bytes marked)`);
    });
  });

  test('cache view: a renderer that drops old thinking breaks the cache at the earlier reply', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('renderer');
      await app.openMore();
      await app.page.locator('#renderer-select').selectOption('qwen3.5');
      await app.page.locator('#parser-select').selectOption('qwen3.5');
      await loadGguf(app);
      const body = await app.requestJson();
      delete body.tools;
      body.think = true;
      body.messages = [
        { role: 'user', content: 'What is two plus two?' },
        { role: 'assistant', content: 'Four.', thinking: 'Two plus two is four.' },
        { role: 'user', content: 'And three plus three?' },
      ];
      await app.setRequest(body);
      const row = app.page.getByTestId('explain-cache');
      await eventually(async () => assert.match(await row.textContent(), /First difference at token/));
      const cli = await cliRender(app);
      const c = cli.cache;
      assert.equal(c.break.kind, 'reply');
      assert.match(await row.textContent(), new RegExp(`^${c.cache_n} of ${c.tokens} tokens reused`));
      assert.match(await row.textContent(), new RegExp(`First difference at token ${c.first_difference.token} `));
      assert.match(await row.textContent(), /drops the thinking/);
      assert.match(await row.getAttribute('title'), /tokenized on its own/);
      // marked in the prompt, where the earlier reply starts
      const mark = app.promptOutput.getByTestId('cache-break');
      await eventually(async () => assert.equal(await mark.count(), 1));
      const before = await mark.evaluate((m) => {
        const r = document.createRange();
        r.setStart(m.parentNode, 0);
        r.setEndBefore(m);
        return r.toString();
      });
      assert.equal(Buffer.byteLength(before), c.first_difference.byte);
      assert.equal(await app.promptText(), cli.prompt);
      console.log(`# qwen3.5, thinking on: ${c.cache_n} of ${c.tokens} tokens reused, break at token ${c.first_difference.token} (byte ${c.first_difference.byte})`);

      // Without thinking in the history the break stays, for another
      // reason: the generation prompt opened a thinking block that the
      // finished turn does not repeat.
      body.messages[1] = { role: 'assistant', content: 'Four.' };
      await app.setRequest(body);
      await eventually(async () => assert.match(await row.textContent(), /generation prompt .* is not how the template renders the finished turn/));
      const plain = (await cliRender(app)).cache;
      assert.equal(plain.break.kind, 'generation-prompt');
      assert.match(await row.textContent(), new RegExp(`^${plain.cache_n} of ${plain.tokens} tokens reused`));
      assert.equal(await mark.count(), 1);
    });
  });
});
