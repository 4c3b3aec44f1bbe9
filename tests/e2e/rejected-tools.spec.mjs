// A request with tools for a model whose template has no tools: Ollama's
// exact rejection, in the prompt pane and in the explain pane.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_time',
      description: 'Current time',
      parameters: { type: 'object', properties: { zone: { type: 'string' } } },
    },
  },
];

describe('a rejected tools request', () => {
  test("shows Ollama's exact rejection", { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setRequest({ model: 'plain', messages: [{ role: 'user', content: 'What time is it?' }], tools: TOOLS });
      const expected = 'registry.ollama.ai/library/plain:latest does not support tools';
      await eventually(async () => assert.equal(await app.errorText(), expected));
      assert.match(await app.page.locator('.error h3').textContent(), /HTTP 400/);
      assert.equal(await app.promptText(), '');
      assert.equal(await app.explainRejection.locator('pre').textContent(), expected);
      // The explanation says what the request needed and what the model has.
      assert.match(await app.explainRejection.locator('h3').textContent(), /HTTP 400/);
      const caps = await app.explainCapabilities.textContent();
      assert.doesNotMatch(caps, /tools/);
      // Turning on the tools capability in the model configuration lets it through.
      await app.openMore();
      await app.capability('tools').check();
      await eventually(async () => assert.equal(await app.errorText(), null));
      assert.match(await app.explainCapabilities.textContent(), /tools — model configuration/);
    });
  });

  test('a name with a namespace and tag is named the way Ollama names it', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setRequest({ model: 'myorg/assistant:8b', messages: [{ role: 'user', content: 'hi' }], tools: TOOLS });
      await eventually(async () =>
        assert.equal(await app.errorText(), 'registry.ollama.ai/myorg/assistant:8b does not support tools'),
      );
    });
  });
});
