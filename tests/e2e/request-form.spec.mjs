// The friendly form edits the request body: messages, roles, tool calls,
// images, think, num_ctx and generate's fields.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('request form', () => {
  test('adds a message, picks a role, adds a tool call and an image', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setTemplate('{{ range .Messages }}{{ .Role }}={{ .Content }}{{ range .ToolCalls }}+{{ .Function.Name }}{{ .Function.Arguments }}{{ end }};{{ end }}');
      await app.setRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      await app.systemInput.fill('');
      await app.expectPrompt('user=hi;');
      await app.addMessageButton.click();
      await eventually(async () => assert.equal(await app.messageRows.count(), 2));
      const row = app.messageRows.nth(1);
      await row.getByRole('combobox').selectOption('assistant');
      await row.getByRole('textbox').fill('calling');
      await row.getByRole('button', { name: '+ tool call' }).click();
      await app.expectPrompt('user=hi;assistant=calling+get_weather{"city":"Paris"};');
      await app.messageRows.nth(0).getByRole('button', { name: '+ image' }).click();
      await eventually(async () => assert.equal((await app.requestJson()).messages[0].images.length, 1));
      // Ollama tags the image in the prompt.
      await app.expectPrompt('user=[img-0]hi;assistant=calling+get_weather{"city":"Paris"};');
      await app.messageRows.nth(1).getByRole('button', { name: 'Remove message 2' }).click();
      await app.expectPrompt('user=[img-0]hi;');
    });
  });

  test('think and num_ctx', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.thinkSelect.selectOption('high');
      await app.page.getByLabel('num_ctx').fill('2048');
      await eventually(async () => {
        const body = await app.requestJson();
        assert.equal(body.think, 'high');
        assert.deepEqual(body.options, { num_ctx: 2048 });
      });
      // The ChatML template cannot think: Ollama rejects a think level.
      await eventually(async () => assert.equal(await app.errorText(), '"chatml-demo" does not support thinking'));
      await app.thinkSelect.selectOption('false');
      await eventually(async () => assert.equal(await app.errorText(), null));
    });
  });

  test("generate's prompt, system, suffix, template and raw", { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.endpointGenerate.check();
      await app.setRequest({ model: 'm' });
      await app.page.getByLabel('prompt', { exact: true }).fill('Hello');
      await app.page.getByLabel('system', { exact: true }).fill('Sys');
      await app.page.getByLabel("template (overrides the model's)").fill('[{{ .System }}|{{ .Prompt }}]');
      await eventually(async () => assert.equal(await app.promptText(), '[Sys|Hello]'));
      await app.page.locator('#form-system').fill('');
      await app.page.locator('#request-template').fill('');
      await app.page.getByRole('checkbox', { name: /raw/ }).check();
      await app.expectPrompt('Hello');
      assert.match(await app.explainBranch.textContent(), /^raw/);
    });
  });
});
