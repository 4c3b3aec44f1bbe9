// The prompt follows every keystroke, in the template and in the request.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

// The ChatML example loaded on a first visit, rendered by Ollama's rules.
const CHATML_PROMPT = [
  '<|im_start|>system',
  'You are a concise, helpful assistant.<|im_end|>',
  '<|im_start|>user',
  'Why is the sky blue?<|im_end|>',
  '<|im_start|>assistant',
  'Rayleigh scattering: air scatters blue light more than red.<|im_end|>',
  '<|im_start|>user',
  'And why are sunsets red?<|im_end|>',
  '<|im_start|>assistant',
  '',
].join('\n');

describe('render as you type', () => {
  test('the first visit shows the ChatML example, its counts and labels', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      assert.match(await app.templateText(), /range \.Messages/);
      await app.expectPrompt(CHATML_PROMPT);
      assert.equal(await app.errorText(), null);
      assert.equal(await app.promptStats.textContent(), `${CHATML_PROMPT.length} characters, ${CHATML_PROMPT.length} bytes`);
      // No tokenizer yet: a placeholder, never a made-up number.
      assert.equal(await app.tokenCount.textContent(), '— tokens (load a GGUF)');
      // Special tokens are tinted; the text stays exact.
      assert.equal(await app.promptOutput.locator('.tok').count(), 9);
      assert.equal(await app.promptOutput.locator('.tok').first().textContent(), '<|im_start|>');
      // Inputs are labelled for assistive technology.
      const page = app.page;
      assert.equal(await page.getByLabel('TEMPLATE (Go text/template)').getAttribute('data-testid'), 'template-input');
      assert.equal(await page.getByLabel('Request body (JSON)').getAttribute('data-testid'), 'request-input');
    });
  });

  test('typing into the template re-renders on each keystroke', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.typeTemplate('{{ range .Messages }}[{{ .Role }}]{{ end }}');
      // (the example's SYSTEM went with the example's template)
      await app.expectPrompt('[user][assistant][user]');
      // One more key: the prompt follows.
      await app.templateInput.press('End');
      await app.templateInput.pressSequentially('!');
      await app.expectPrompt('[user][assistant][user]!');
    });
  });

  test('editing the request re-renders', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setTemplate('{{ range .Messages }}{{ .Role }}: {{ .Content }}\n{{ end }}');
      await app.setRequest({ model: 'demo', messages: [{ role: 'user', content: 'hi' }] });
      await app.expectPrompt('user: hi\n');
      // A Modelfile SYSTEM comes first.
      await app.systemInput.fill('Be brief.');
      await app.expectPrompt('system: Be brief.\nuser: hi\n');
    });
  });

  test('whitespace can be made visible', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setTemplate('a b\t{{ range .Messages }}{{ end }}\n');
      await app.expectPrompt('a b\t\n');
      await app.whitespaceToggle.check();
      await app.expectPrompt('a·b→\t↵\n');
      await app.whitespaceToggle.uncheck();
      await app.expectPrompt('a b\t\n');
    });
  });

  test('no messages: Ollama only loads the model', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setRequest({ model: 'demo', messages: [] });
      await eventually(async () => assert.equal(await app.noPrompt.count(), 1));
      assert.match(await app.noPrompt.textContent(), /done_reason "load"/);
      assert.equal(await app.promptText(), '');
      assert.equal(await app.errorText(), null);
    });
  });

  test('a runaway template stops with an error instead of freezing the page', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const started = Date.now();
      await app.setTemplate('{{ range 100000000000 }}x{{ end }}');
      await eventually(async () => assert.match((await app.errorText()) ?? '', /limit/i), { timeout: 20_000 });
      assert.ok(Date.now() - started < 20_000);
      await app.setTemplate('ok{{ .Messages }}');
      await eventually(async () => assert.match(await app.promptText(), /^ok\[/));
    });
  });
});
