// The explain pane: path and rule, branch, names, capabilities and their
// origins, think, message notes, and the curl command for a real Ollama.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('explain pane', () => {
  test('the ChatML example: Go template, messages branch, SYSTEM added', { timeout: TEST_TIMEOUT }, async (t) => {
    await withApp(server(), async (app) => {
      await eventually(async () => assert.equal(await app.selectedPath.textContent(), 'go_template'));
      assert.equal(await app.selectedRule.textContent(), 'the model has a Go TEMPLATE and no GGUF chat template');
      assert.match(await app.explainBranch.textContent(), /^messages/);
      assert.equal(await app.explainVars.textContent(), 'content messages role system ');
      assert.match(await app.explainCapabilities.textContent(), /completion — every generative model/);
      const firstRow = app.explainMessages.locator('tbody tr').first();
      assert.match(await firstRow.textContent(), /modelfile SYSTEM.*added because the request does not start with a system message/);
      const curl = await app.debugCurl.textContent();
      assert.ok(curl.startsWith("curl http://localhost:11434/api/chat -d '{\"model\":\"chatml-demo\""), curl);
      assert.match(curl, /"_debug_render_only":true\}'$/);
      assert.match(await app.modelfile.textContent(), /^FROM \.\/model\.gguf\nTEMPLATE """/);
    });
  });

  test('tools and thinking: capabilities and what turned each on', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('qwen-tools');
      await eventually(async () => assert.match(await app.explainCapabilities.textContent(), /tools — template uses \.Tools/));
      const caps = await app.explainCapabilities.textContent();
      assert.match(caps, /thinking — template shows \.Thinking between <think> and <\/think> inside range \.Messages/);
      assert.match(await app.explainThink.textContent(), /true.*set by the request/);
      // Leaving think unset: a thinking model defaults to true.
      await app.thinkSelect.selectOption('');
      await eventually(async () => assert.match(await app.explainThink.textContent(), /think defaults to true/));
    });
  });

  test('legacy, insert, renderer and GGUF paths', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('legacy');
      await eventually(async () => assert.match(await app.explainBranch.textContent(), /^legacy/));
      await app.loadExample('fim');
      await eventually(async () => assert.match(await app.explainBranch.textContent(), /^insert/));
      assert.match(await app.explainCapabilities.textContent(), /insert — template uses \.Suffix/);
      await app.loadExample('renderer');
      await eventually(async () => assert.equal(await app.selectedPath.textContent(), 'renderer_parser'));
      assert.match(await app.explainBranch.textContent(), /^renderer/);
      await app.loadExample('gguf-wins');
      await eventually(async () => assert.equal(await app.selectedPath.textContent(), 'gguf_chat_template'));
      assert.match(await app.selectedRule.textContent(), /the GGUF chat template can do more than the Go TEMPLATE \(GGUF: tools; Go: none\): the GGUF chat template is preferred/);
      assert.match(await app.explainBranch.textContent(), /^native/);
      // llama-server's rendering of the Jinja template, at the build Ollama compiles
      await eventually(async () => assert.match(await app.promptText(), /<\|im_start\|>user\nHi!<\|im_end\|>/));
      assert.equal(await app.page.getByTestId('release-select').inputValue(), '0.33.0-rc2');
      assert.equal(await app.page.getByTestId('model-runtime-native').textContent(), '· native mode on llama-server b10488');
      assert.match(await app.page.getByTestId('explain-llamacpp').textContent(), /^b10488 native mode renders on llama\.cpp b10488/);
      // where llama-server finds the user messages (the autoparser's markers of this ChatML template)
      assert.equal(
        await app.page.getByTestId('explain-delimiters').textContent(),
        'assistant: "<|im_start|>assistant", user: "<|im_start|>user"',
      );
      // With think unset llama-server's default applies, and the prompt still renders.
      await app.thinkSelect.selectOption('');
      await eventually(async () => assert.match(await app.promptText(), /<\|im_start\|>user\nHi!<\|im_end\|>/));
      assert.equal(await app.selectedPath.textContent(), 'gguf_chat_template');
      await app.thinkSelect.selectOption('false');
      // OLLAMA_GO_TEMPLATE=true forces the Go TEMPLATE back.
      await app.openMore();
      await app.goTemplateEnv.selectOption('true');
      await eventually(async () => assert.equal(await app.selectedPath.textContent(), 'go_template'));
      assert.match(await app.selectedRule.textContent(), /OLLAMA_GO_TEMPLATE is true/);
    });
  });

  test('a rule of b10488 that applied is named, and the template it refuses', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('gguf-wins');
      await eventually(async () => assert.match(await app.explainBranch.textContent(), /^native/));
      // a test with a bare argument: b11312 parses it, b10488 (Ollama's) does not
      // (it still declares tools, so Ollama still prefers it to the Go TEMPLATE)
      await app.chatTemplateInput.fill(
        "{%- if tools %}{{ tools | tojson }}{% endif %}{% for m in messages %}{% if loop.index is divisibleby 2 %}{{ m.content }}{% endif %}{% endfor %}",
      );
      await eventually(async () => {
        const rules = await app.page.getByTestId('explain-build-rules').textContent();
        assert.match(rules, /jinja_test_arg_without_parens — a test's argument needs parentheses/);
        assert.match(rules, /changed in llama\.cpp b11200/);
      });
      assert.match(await app.page.getByTestId('explain-llamacpp').textContent(), /b10488/);
    });
  });

  test('a renderer picked from the list takes over', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.openMore();
      await app.rendererSelect.selectOption('qwen3-coder');
      await eventually(async () => assert.equal(await app.selectedPath.textContent(), 'renderer'));
      assert.match(await app.selectedRule.textContent(), /RENDERER qwen3-coder is set/);
      await app.parserSelect.selectOption('qwen3-coder');
      await eventually(async () => assert.equal(await app.selectedPath.textContent(), 'renderer_parser'));
    });
  });
});
