// A tokenizer_config.json opened from the top bar's "Model from:" source
// gives the Jinja chat template and special tokens; Compare then sets any
// two of Ollama, llama-server (a build) and Hugging Face transformers'
// apply_chat_template (what vLLM, SGLang and MLX-LM render) side by side
// and shows the first difference and its cause. The expected transformers prompt was printed by transformers
// 5.25.0 (jinja2 3.1.6) for the same template and conversation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

// `'|>'|safe` is a Markup string in Jinja2: its `+` HTML-escapes the plain
// strings beside it; llama.cpp's engine (Ollama's native mode) does not.
const CONFIG = {
  tokenizer_class: 'PreTrainedTokenizerFast',
  bos_token: { content: '<s>', special: true },
  eos_token: '</s>',
  chat_template:
    "{{ bos_token }}{% for m in messages %}{{ '<|' + m.role + '|>'|safe + m.content }}\n{% endfor %}" +
    '{% if add_generation_prompt %}<|assistant|>{% endif %}',
};
const OLLAMA = '<s><|user|>Say "hi" & <wave>\n<|assistant|>';
const TRANSFORMERS = '<s>&lt;|user|>Say &#34;hi&#34; &amp; &lt;wave&gt;\n<|assistant|>';

describe('transformers', () => {
  test('a tokenizer_config.json, then Ollama vs transformers in Compare', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      const id = (name) => app.root.getByTestId(name);
      await app.endpointChat.click();
      await app.setRequest({ model: 'demo', messages: [{ role: 'user', content: 'Say "hi" & <wave>' }] });
      // the top bar's source opens a file chooser; the file is imported
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), id('source-config').click()]);
      await chooser.setFiles({
        name: 'tokenizer_config.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(CONFIG)),
      });
      await eventually(async () =>
        assert.match(await id('import-model-status').textContent(), /taken from the tokenizer_config\.json/),
      );
      // Ollama renders it as a GGUF converted from this model: native mode
      await app.expectPrompt(OLLAMA);
      await app.openMore();
      assert.equal(await app.chatTemplateInput.inputValue(), CONFIG.chat_template);

      await id('compare-toggle').click();
      await id('compare-mode').selectOption('runtimes');
      await eventually(async () => assert.equal(await id('compare-first').textContent(), 'First difference at byte 3.'));
      assert.match(await id('compare-b-path').textContent(), /^apply_chat_template \(transformers 5\.25\.0\)$/);
      const causes = await id('compare-causes').locator('li').allTextContents();
      assert.equal(causes.length, 1);
      assert.match(causes[0], /^html_escape: in Jinja2 a `\|safe` string is Markup/);
      // the diff holds both prompts: A's text struck out, B's underlined
      const diff = id('compare-diff');
      const text = (sel) => diff.locator(sel).allTextContents().then((t) => t.join(''));
      assert.match(await text('ins'), /&lt;/);
      // A and B read back from the diff (changes show spaces as ·, newlines as ↵)
      const side = (drop) =>
        diff.evaluate(
          (pre, drop) =>
            Array.from(pre.childNodes)
              .filter((n) => n.nodeName !== drop)
              .map((n) => n.textContent)
              .join(''),
          drop,
        );
      const plain = (t) => t.replaceAll('·', ' ').replaceAll('↵\n', '\n');
      assert.equal(plain(await side('INS')), OLLAMA);
      assert.equal(plain(await side('DEL')), TRANSFORMERS);

      // a tokenizer.json dropped on the import box counts B, and places the difference among its tokens
      const json = readFileSync(new URL('../corpus/hf-tokenizer/byte-level-bpe.json', import.meta.url), 'utf8');
      const dropped = await page.evaluateHandle((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'tokenizer.json', { type: 'application/json' }));
        return dt;
      }, json);
      await id('import-model-pane').dispatchEvent('drop', { dataTransfer: dropped });
      // tokenizers 0.23.3 with this file: A 29 ids, B 48 ids, first differing at index 3
      await eventually(async () => assert.match(await id('compare-hf-tokens').textContent(), /^B: 48 tokens \(tokenizer\.json, /), {
        timeout: 60_000,
      });
      assert.equal(
        await id('compare-first-token').textContent(),
        "In tokenizer.json's tokens, the first difference is token 3.",
      );

      // llama-server b10488 on side A: Ollama's native mode runs that build, so the same difference
      await id('compare-runtime-a').selectOption('llama-server@b10488');
      await eventually(async () => assert.match(await id('compare-a-path').textContent(), /^POST \/apply-template$/));
      assert.equal(await id('compare-first').textContent(), 'First difference at byte 3.');
      assert.equal(plain(await side('INS')), OLLAMA);

      // two llama.cpp builds: a template that reads preserve_reasoning, which b11312 sets by default
      await app.chatTemplateInput.fill(`${CONFIG.chat_template}{% if preserve_reasoning %}<keep>{% endif %}`);
      await id('compare-runtime-b').selectOption('llama-server@b11312');
      await eventually(async () => assert.equal(await id('compare-first').textContent(), `First difference at byte ${OLLAMA.length}.`));
      const rows = await id('compare-causes').locator('li').allTextContents();
      assert.equal(rows.length, 1);
      assert.match(rows[0], /^preserve_reasoning_default: templates get preserve_reasoning=true/);
      assert.equal(plain(await side('DEL')), `${OLLAMA}<keep>`);

      // /api/generate has no conversation for llama-server or transformers
      await app.endpointGenerate.click();
      await eventually(async () => assert.match(await id('compare-note').textContent(), /switch the endpoint to \/api\/chat/));
    });
  });
});

describe('transformers token counts', () => {
  test("a tokenizer.json counts transformers' prompt as tokenizers does", { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (name) => app.root.getByTestId(name);
      await app.endpointChat.click();
      await app.setRequest({ model: 'demo', messages: [{ role: 'user', content: 'What is the weather in Paris?' }] });
      // no SYSTEM: the conversation is the user's message alone
      await app.systemInput.fill('');
      await app.openMore();
      await app.chatTemplateInput.fill(
        '{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}' +
          '{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}',
      );
      await id('import-tokenizer-file').setInputFiles(
        fileURLToPath(new URL('../corpus/hf-tokenizer/byte-level-bpe.json', import.meta.url)),
      );
      await eventually(
        async () =>
          assert.equal(
            await id('import-tokenizer-status').textContent(),
            "byte-level-bpe.json: 600 tokens in its vocabulary; Compare counts transformers' prompt with it.",
          ),
        { timeout: 60_000 },
      );
      await id('compare-toggle').click();
      await id('compare-mode').selectOption('runtimes');
      // transformers 5.25.0: apply_chat_template(tokenize=True) gives 16 ids with this tokenizer.json
      await eventually(async () =>
        assert.match(await id('compare-hf-tokens').textContent(), /^B: 16 tokens \(byte-level-bpe\.json, /),
      );
      // a file that is not a tokenizer says so
      await id('import-tokenizer-file').setInputFiles({
        name: 'broken.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"model": 3}'),
      });
      await eventually(async () =>
        assert.match(await id('import-tokenizer-status').textContent(), /^Not loaded: broken\.json: tokenizer\.json is not a tokenizer/),
      );
    });
  });
});

describe('Ollama release', () => {
  test('picked in the top bar: kept by examples and reloads, carried by a share link', { timeout: TEST_TIMEOUT }, async () => {
    let url;
    await withApp(server(), async (app) => {
      const page = app.page;
      const id = (name) => app.root.getByTestId(name);
      assert.match(await id('model-runtime').textContent(), /^Rendered by Ollama/);
      assert.equal(await id('release-select').inputValue(), '0.33.0-rc2');
      assert.deepEqual(await id('release-select').locator('option').allTextContents(), [
        '0.33.0-rc2',
        '0.33.0-rc1',
        '0.33.0-rc0',
        '0.32.15',
        '0.32.15-rc2',
        '0.32.15-rc1',
        '0.32.15-rc0',
        '0.32.14',
        '0.32.14-rc0',
        '0.32.13',
        '0.32.12',
        '0.32.11',
        '0.32.10',
        '0.32.10-rc1',
        '0.32.10-rc0',
        '0.32.9',
        '0.32.8',
        '0.32.8-rc0',
        '0.32.7',
        '0.32.6',
        '0.32.6-rc0',
        '0.32.5',
        '0.32.5-rc0',
        '0.32.4',
        '0.32.4-rc0',
        '0.32.3',
        '0.32.3-rc0',
        '0.32.2',
        '0.32.2-rc3',
        '0.32.2-rc2',
        '0.32.2-rc1',
        '0.32.2-rc0',
        '0.32.1',
        '0.32.1-rc0',
        '0.32.0',
        '0.32.0-rc0',
        '0.31.2',
        '0.31.2-rc2',
        '0.31.2-rc1',
        '0.31.2-rc0',
        '0.31.1',
        '0.31.0',
        '0.30.12-rc0',
        '0.30.11',
        '0.30.11-rc1',
        '0.30.11-rc0',
        '0.30.10',
        '0.30.10-rc1',
        '0.30.10-rc0',
        '0.30.9',
        '0.30.9-rc2',
        '0.30.9-rc1',
        '0.30.9-rc0',
        '0.30.8',
        '0.30.8-rc0',
        '0.30.7',
        '0.30.7-rc1',
        '0.30.7-rc0',
        '0.30.6',
        '0.30.6-rc0',
        '0.30.5',
        '0.30.5-rc0',
        '0.30.4',
        '0.30.4-rc1',
        '0.30.4-rc0',
        '0.30.3',
        '0.30.2',
        '0.30.2-rc0',
        '0.30.1',
        '0.30.1-rc0',
        '0.30.0',
      ]);
      const prompt = await app.promptText();
      await id('release-select').selectOption('0.32.15');
      await eventually(async () => assert.equal(await id('release-select').inputValue(), '0.32.15'));
      // the same prompt: nothing between these releases reaches the model
      assert.equal(await app.promptText(), prompt);
      // an example keeps it
      await app.loadExample('llama3');
      assert.equal(await id('release-select').inputValue(), '0.32.15');
      // a reload keeps it
      await page.reload();
      await app.ready();
      assert.equal(await id('release-select').inputValue(), '0.32.15');
      // the share link carries it, into another browser profile
      await app.shareButton.click();
      url = await app.shareUrl.inputValue();
    });
    const browser = await openBrowser();
    try {
      const other = new AppPage(browser.page);
      await other.open(url);
      assert.equal(await browser.page.getByTestId('release-select').inputValue(), '0.32.15');
    } finally {
      await browser.close();
    }
  });

  test('a nemotron-3-nano chat under 0.30.0 and 0.33.0-rc2: the prompt changes, and Compare names the row', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (name) => app.root.getByTestId(name);
      await app.endpointChat.click();
      await app.systemInput.fill('');
      await app.openMore();
      await app.rendererSelect.selectOption('nemotron-3-nano');
      await app.setRequest({ model: 'demo', think: false, messages: [{ role: 'user', content: 'Hello' }] });
      await id('release-select').selectOption('0.30.0');
      // 0.30.0's renderer (the same up to 0.32.8): three newlines first, blank lines between the turns
      const old = '\n\n\n<|im_start|>system\n<|im_end|>\n\n<|im_start|>user\nHello<|im_end|>\n\n<|im_start|>assistant\n<think></think>';
      await eventually(async () => assert.equal(await app.promptText(), old));
      const rule = id('explain-release-rules').locator('li[data-rule="nemotron3nano_template_sync"]');
      await eventually(async () => assert.equal(await rule.getAttribute('data-in-effect'), 'false'));
      await id('release-select').selectOption('0.33.0-rc2');
      const now = '<|im_start|>system\n<|im_end|>\n<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n<think></think>';
      await eventually(async () => assert.equal(await app.promptText(), now));
      await eventually(async () => assert.equal(await rule.getAttribute('data-in-effect'), 'true'));
      await id('compare-toggle').click();
      await id('compare-mode').selectOption('runtimes');
      await id('compare-runtime-a').selectOption('ollama@0.30.0');
      await id('compare-runtime-b').selectOption('ollama@0.33.0-rc2');
      await eventually(async () => assert.equal(await id('compare-first').textContent(), 'First difference at byte 0.'));
      const rows = await id('compare-causes').locator('li').allTextContents();
      assert.equal(rows.length, 1);
      assert.match(rows[0], /^nemotron3nano_template_sync: the prompt follows the model's updated template.* \(Ollama 0\.32\.9, PR #17060, commit bb7bba885\); before: the prompt starts with three newlines/);
    });
  });

  test('an lfm2-thinking chat under 0.30.9-rc0 and 0.30.9-rc1: the thinking field is written, and Compare names the row', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (name) => app.root.getByTestId(name);
      await app.endpointChat.click();
      await app.systemInput.fill('');
      await app.openMore();
      await app.rendererSelect.selectOption('lfm2-thinking');
      await app.setRequest({ model: 'demo', think: false, messages: [
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: 'A1', thinking: 'reason1' },
        { role: 'user', content: 'Q2' },
        { role: 'assistant', content: 'A2', thinking: 'reason2' },
      ] });
      const head = '<|startoftext|><|im_start|>user\nQ1<|im_end|>\n<|im_start|>assistant\nA1<|im_end|>\n<|im_start|>user\nQ2<|im_end|>\n<|im_start|>assistant\n';
      await id('release-select').selectOption('0.30.9-rc0');
      await eventually(async () => assert.equal(await app.promptText(), head + 'A2'));
      const rule = id('explain-release-rules').locator('li[data-rule="lfm2_thinking_field_rendered"]');
      await eventually(async () => assert.equal(await rule.getAttribute('data-in-effect'), 'false'));
      await id('release-select').selectOption('0.30.9-rc1');
      await eventually(async () => assert.equal(await app.promptText(), head + '<think>reason2</think>A2'));
      await eventually(async () => assert.equal(await rule.getAttribute('data-in-effect'), 'true'));
      await id('compare-toggle').click();
      await id('compare-mode').selectOption('runtimes');
      await id('compare-runtime-a').selectOption('ollama@0.30.9-rc0');
      await id('compare-runtime-b').selectOption('ollama@0.30.9-rc1');
      await eventually(async () => assert.equal(await id('compare-first').textContent(), 'First difference at byte 132.'));
      const rows = await id('compare-causes').locator('li').allTextContents();
      assert.equal(rows.length, 1);
      assert.match(rows[0], /^lfm2_thinking_field_rendered: lfm2-thinking writes an assistant message's thinking .* \(Ollama 0\.30\.9-rc1, PR #16359, commit 993acc750\); before: an assistant message's thinking field is never written/);
    });
  });

  test('gemma4 under 0.32.0 and 0.33.0-rc2: adjacent assistant turns, and when the format applies', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (name) => app.root.getByTestId(name);
      await app.endpointChat.click();
      await app.systemInput.fill('');
      await app.openMore();
      await app.rendererSelect.selectOption('gemma4');
      await app.parserSelect.selectOption('qwen3.5');
      await app.setRequest({
        model: 'demo',
        think: false,
        format: 'json',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      });
      // 0.32.0 ends every assistant message's turn; 0.32.1-rc0 on, one model turn
      await id('release-select').selectOption('0.32.0');
      await eventually(async () =>
        assert.equal(await app.promptText(), '<bos><|turn>user\nHi<turn|>\n<|turn>model\na<turn|>\nb<turn|>\n<|turn>model\n'),
      );
      const turns = id('explain-release-rules').locator('li[data-rule="gemma4_model_turn_structure"]');
      await eventually(async () => assert.equal(await turns.getAttribute('data-in-effect'), 'false'));
      // a thinking parser with think false: the format applies at once from 0.31.2-rc2
      const format = id('explain-release-rules').locator('li[data-rule="format_immediate_for_thinking_parsers"]');
      await eventually(async () => assert.equal(await format.getAttribute('data-in-effect'), 'true'));
      assert.match(await id('explain-format').textContent(), /from the first token/);
      await id('release-select').selectOption('0.31.2-rc1');
      await eventually(async () => assert.equal(await format.getAttribute('data-in-effect'), 'false'));
      assert.match(await id('explain-format').textContent(), /never applied/);
      await id('release-select').selectOption('0.33.0-rc2');
      await eventually(async () =>
        assert.equal(await app.promptText(), '<bos><|turn>user\nHi<turn|>\n<|turn>model\nab<turn|>\n<|turn>model\n'),
      );
      await eventually(async () => assert.equal(await turns.getAttribute('data-in-effect'), 'true'));
    });
  });

  test('two releases in Compare: the first difference and the row of the release table that explains it', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const id = (name) => app.root.getByTestId(name);
      await app.endpointChat.click();
      // no SYSTEM: the conversation is the request's own
      await app.systemInput.fill('');
      await app.openMore();
      await app.rendererSelect.selectOption('qwen3.8');
      await app.setRequest({
        model: 'demo',
        think: false,
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'How are you?' },
        ],
      });
      // 0.32.15-rc1 leaves a later system message where it is; Explain names the row
      await id('release-select').selectOption('0.32.15-rc1');
      await eventually(async () => assert.match(await app.promptText(), /^<\|im_start\|>user\nHello<\|im_end\|>/));
      // the rows the render reached: qwen3.8 exists, takes a later system
      // message, and (in this release) does not fold it
      const rules = id('explain-release-rules').locator('li');
      await eventually(async () =>
        assert.deepEqual(await rules.evaluateAll((li) => li.map((l) => [l.dataset.rule, l.dataset.inEffect])), [
          ['qwen38_renderer', 'true'],
          ['qwen38_fold_all_instructions', 'false'],
          ['qwen38_system_anywhere', 'true'],
        ]),
      );
      const rule = id('explain-release-rules').locator('li[data-rule="qwen38_fold_all_instructions"]');
      assert.match(await rule.textContent(), /changed in Ollama 0\.32\.15-rc2 \(PR #17855, commit b8a627244\)/);
      // 0.33.0-rc2 folds it into the leading system turn
      await id('release-select').selectOption('0.33.0-rc2');
      await eventually(async () => assert.match(await app.promptText(), /^<\|im_start\|>system\nAnswer in French\.<\|im_end\|>/));
      await eventually(async () => assert.equal(await rule.getAttribute('data-in-effect'), 'true'));
      // Compare, both releases side by side
      await id('compare-toggle').click();
      await id('compare-mode').selectOption('runtimes');
      await id('compare-runtime-a').selectOption('ollama@0.32.15-rc1');
      await id('compare-runtime-b').selectOption('ollama@0.33.0-rc2');
      await eventually(async () => assert.equal(await id('compare-first').textContent(), 'First difference at byte 12.'));
      const rows = await id('compare-causes').locator('li').allTextContents();
      assert.equal(rows.length, 1);
      assert.match(rows[0], /^qwen38_fold_all_instructions: every system and developer message, wherever it is, is folded .* \(Ollama 0\.32\.15-rc2, PR #17855, commit b8a627244\); before: only the leading run/);
    });
  });
});
