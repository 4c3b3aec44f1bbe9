// The embedding routes (/api/embed, /api/embeddings, /v1/embeddings): no
// prompt, but each input as the model gets it. With a BERT GGUF (bert-bge's
// vocabulary, made an embedding model by adding bert.pooling_type), the
// Prompt pane shows each input's text after Ollama's truncation, its token
// count with [CLS]/[SEP] and what truncation did, and Explain says why;
// each against `promptscope render --json` for the exported case.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { cli, llamaCpp } from './support/fixtures.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

/** bert-bge's vocabulary GGUF with `bert.pooling_type = 1` (u32) added after the header. */
function bgeEmbeddingModel() {
  const bytes = readFileSync(llamaCpp('models/ggml-vocab-bert-bge.gguf'));
  const key = Buffer.from('bert.pooling_type');
  const kv = Buffer.alloc(8 + key.length + 8);
  kv.writeBigUInt64LE(BigInt(key.length), 0);
  key.copy(kv, 8);
  kv.writeUInt32LE(4, 8 + key.length); // GGUF_TYPE_UINT32
  kv.writeUInt32LE(1, 12 + key.length);
  const head = Buffer.from(bytes.subarray(0, 24));
  head.writeBigUInt64LE(head.readBigUInt64LE(16) + 1n, 16);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'promptscope-embed-')), 'bert-bge-embed.gguf');
  writeFileSync(file, Buffer.concat([head, kv, bytes.subarray(24)]));
  return file;
}

const GGUF = bgeEmbeddingModel();

async function loadGguf(app) {
  await app.page.getByTestId('gguf-input').setInputFiles(GGUF);
  await eventually(async () => assert.match(await app.page.getByTestId('gguf-status').textContent(), /read .* of /), {
    timeout: 60_000,
  });
}

/** The app's state exported as a render case, through `promptscope render --json` with the GGUF. */
async function cliRender(app) {
  const [download] = await Promise.all([
    app.page.waitForEvent('download'),
    app.page.getByTestId('export-button').click(),
  ]);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  exported.model.gguf = GGUF;
  const out = spawnSync(cli(), ['render', '--json', '-'], { input: JSON.stringify(exported) });
  return JSON.parse(out.stdout.toString('utf8'));
}

const words = (n) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('embedding routes', () => {
  test('/api/embed: each input as the model sees it, truncated to num_ctx, with its tokens', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (t) => app.page.getByTestId(t);
      await id('endpoint-embed').check();
      await app.setRequest({ model: 'bge', input: ['hello world', words(40)], options: { num_ctx: 16 } });
      // without a GGUF: the inputs, no counts
      await eventually(async () => assert.equal(await id('embed-input').count(), 2));
      assert.match(await id('embed-count').first().textContent(), /GGUF/);
      await loadGguf(app);
      await eventually(async () => assert.match(await id('embed-count').first().textContent(), /^4 tokens/));
      const cliOut = await cliRender(app);
      assert.equal(cliOut.prompt_eval_count, 20);
      assert.match(await id('embed-summary').textContent(), /prompt_eval_count 20/);
      // [CLS] hello world [SEP]
      assert.deepEqual(cliOut.inputs[0].tokens, [101, 7592, 2088, 102]);
      assert.equal(await id('embed-sent').first().textContent(), 'hello world');
      // the long input: 80 WordPiece tokens cut to 16 - 2, sent as their pieces joined
      const second = id('embed-input').nth(1);
      assert.match(await second.getByTestId('embed-truncated').textContent(), /80 → 14/);
      assert.equal(await second.getByTestId('embed-sent').textContent(), cliOut.inputs[1].sent);
      assert.equal(cliOut.inputs[1].sent, ' word0 word1 word2 word3 word4 word5 word6');
      assert.match(await second.getByTestId('embed-count').textContent(), /^16 tokens/);
      // Explain: the sizes and each step
      assert.match(await id('embed-runner').textContent(), /num_ctx 16, num_batch 16/);
      assert.match(await id('embed-steps').nth(1).textContent(), /80 tokens, over the limit of 14/);
      assert.equal(await app.promptText(), '');
      console.log(`# /api/embed: ${cliOut.inputs.map((i) => `${i.text_tokens} → ${i.count}`).join(', ')} tokens`);
    });
  });

  test('truncate false refuses; the legacy route sends the prompt whole', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (t) => app.page.getByTestId(t);
      await id('endpoint-embed').check();
      await app.setRequest({ model: 'bge', input: words(40), truncate: false, options: { num_ctx: 16 } });
      await loadGguf(app);
      await eventually(async () => assert.equal(await app.errorText(), 'the input length exceeds the context length'));
      assert.match(await id('embed-input-error').textContent(), /^400: /);
      const refused = await cliRender(app);
      assert.equal(refused.error, 'the input length exceeds the context length');
      // the form's truncate checkbox writes the body
      await id('form-truncate').check();
      await eventually(async () => assert.equal((await app.requestJson()).truncate, undefined));
      await eventually(async () => assert.equal(await app.errorText(), null));
      // /api/embeddings: no truncation; llama-server's slot and batch hold 82 tokens
      await id('endpoint-embeddings').check();
      await app.setRequest({ model: 'bge', prompt: words(40), options: { num_ctx: 16 } });
      await eventually(async () => assert.match(await app.errorText() ?? '', /the input length exceeds the context length/));
      assert.match(await app.page.locator('#prompt-pane').textContent(), /HTTP 500/);
      await app.setRequest({ model: 'bge', prompt: words(40) });
      await eventually(async () => assert.match(await id('embed-count').first().textContent(), /^82 tokens/));
    });
  });

  test('/v1/embeddings: the converted request, and the inputs form', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (t) => app.page.getByTestId(t);
      await id('endpoint-openai-embeddings').check();
      await app.setRequest({ model: 'bge', input: '' });
      await eventually(async () => assert.equal(await id('embed-input').count(), 1));
      assert.match(await id('embed-api-request').textContent(), /"input": \[\s*""\s*\]/);
      await id('embed-inputs-input').fill('first\nsecond\nthird');
      await eventually(async () => assert.deepEqual((await app.requestJson()).input, ['first', 'second', 'third']));
      await eventually(async () => assert.equal(await id('embed-input').count(), 3));
      await app.setRequest({ model: 'bge', input: [], encoding_format: 'float' });
      await eventually(async () => assert.equal(await app.errorText(), 'invalid input'));
      assert.match(await id('error-body').textContent(), /"type":"invalid_request_error"/);
    });
  });
});
