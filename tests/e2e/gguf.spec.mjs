// A GGUF chosen in the Model pane: only its metadata is read, the chat
// template and BOS/EOS are filled, the token count equals what
// `promptscope render --json` prints (`prompt_eval_count`) for the same
// case, the token view, the metadata pane, the truncation preview and a
// corrupt file's error with its offset.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { cliRender } from './support/cli-render.mjs';
import { anyGguf, cli as cliBinary } from './support/fixtures.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();


async function tokenCount(app) {
  const text = await app.tokenCount.textContent();
  const m = /^(\d+) tokens/.exec(text);
  if (!m) throw new Error(`token count is ${JSON.stringify(text)}`);
  return Number(m[1]);
}

describe('GGUF', () => {
  test('token count equals the CLI, token view, metadata, truncation, corrupt file', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('chatml');
      await app.openMore();
      await app.page.locator('#model-date').fill('2025-06-15');
      assert.match(await app.tokenCount.textContent(), /load a GGUF/);

      await app.page.getByTestId('gguf-input').setInputFiles(anyGguf());
      await eventually(async () => assert.match(await app.page.getByTestId('gguf-status').textContent(), /read .* of /), {
        timeout: 60_000,
      });
      const count = await eventually(() => tokenCount(app));
      const cli = await cliRender(app);
      assert.equal(await app.promptText(), cli.prompt);
      assert.equal(count, cli.prompt_eval_count, 'prompt_eval_count');
      console.log(`# ${path.basename(anyGguf())}: prompt_eval_count ${count} in the app and from ${cliBinary()}`);
      // Only the metadata was read, not the tensor data.
      const status = await app.page.getByTestId('gguf-status').textContent();
      assert.match(status, /read [\d.]+ (KiB|MiB) of/);

      // Token view: one span per token, id and text in the title.
      await app.page.getByTestId('token-view-toggle').check();
      await eventually(async () => assert.equal(await app.promptOutput.locator('span.tk').count(), count));
      assert.match(await app.promptOutput.locator('span.tk').nth(1).getAttribute('title'), /^\d+: /);
      await app.page.getByTestId('token-view-toggle').uncheck();

      // Metadata pane: keys and tensors, searchable, with the memory estimate.
      await app.page.getByTestId('gguf-metadata').locator('summary').first().click();
      assert.match(await app.page.getByTestId('gguf-summary').textContent(), /parameters .* num_ctx 4096/);
      await app.page.getByTestId('gguf-search').fill('general.architecture');
      await eventually(async () => assert.equal(await app.page.getByTestId('gguf-keys').locator('tr').count(), 1));
      assert.match(await app.page.getByTestId('gguf-keys').textContent(), /general\.architecture/);

      // Truncation preview: a small num_ctx drops the oldest messages.
      const body = await app.requestJson();
      body.messages = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'The first question, which is fairly long and has many words in it.' },
        { role: 'assistant', content: 'The first answer, which is also fairly long and wordy.' },
        { role: 'user', content: 'Second?' },
      ];
      body.options = { num_ctx: 30 };
      await app.setRequest(body);
      await eventually(async () => assert.ok((await app.page.getByTestId('dropped-message').count()) > 0));
      const cut = await cliRender(app);
      const firstKept = cut.explain.truncation.first_kept;
      const notes = cut.explain.messages;
      const dropped = notes.filter((n, i) => i < firstKept && n.role !== 'system').length;
      assert.ok(dropped > 0);
      assert.equal(await app.page.getByTestId('dropped-message').count(), dropped);
      assert.equal(await tokenCount(app), cut.prompt_eval_count);
      const costs = await app.page.getByTestId('message-tokens').allTextContents();
      assert.deepEqual(costs.map(Number), cut.explain.message_tokens);
      console.log(`# num_ctx 30: ${dropped} message(s) dropped, costs ${costs.join(' ')}`);

      // The runner's cut: a last message longer than num_ctx cannot be
      // dropped, so llama-server keeps num_keep tokens and the tail; the
      // count is what it evaluates, as the CLI reports.
      body.messages = [{ role: 'user', content: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ') }];
      body.options = { num_ctx: 64 };
      await app.setRequest(body);
      const runnerRow = app.page.getByTestId('explain-runner');
      await eventually(async () => assert.match(await runnerRow.textContent(), /dropped/));
      const shifted = await cliRender(app);
      const [from, to] = shifted.runner.cut.dropped;
      assert.equal(
        await runnerRow.textContent(),
        `num_ctx 64, num_keep 4, context shift on: tokens 0–${from} and ${to}–${shifted.runner.tokens} kept, ` +
          `${from}–${to} dropped (${to - from} tokens); ${shifted.runner.cut.tokens_after} evaluated`,
      );
      assert.equal(shifted.prompt_eval_count, shifted.runner.cut.tokens_after);
      assert.equal(await tokenCount(app), shifted.prompt_eval_count);
      console.log(`# num_ctx 64, one ${shifted.runner.tokens}-token message: tokens ${from}–${to} dropped by the runner`);

      // A corrupt file: the error names the offset.
      await app.page.getByTestId('gguf-input').setInputFiles({
        name: 'broken.gguf',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('GGUF\x03\x00\x00\x00\x01', 'latin1'),
      });
      await eventually(async () =>
        assert.match(await app.page.getByTestId('gguf-status').textContent(), /broken\.gguf: .*offset \d+/),
      );
    });
  });
});
