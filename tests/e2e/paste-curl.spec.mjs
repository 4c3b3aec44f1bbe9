// Pasting a curl command or a whole request body fills the endpoint and the request.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('paste a request', () => {
  test('a curl command for /api/generate', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.setTemplate('{{ if .Suffix }}<PRE> {{ .Prompt }} <SUF>{{ .Suffix }} <MID>{{ else }}{{ .Prompt }}{{ end }}');
      const cmd = `curl http://localhost:11434/api/generate \\
  -H 'Content-Type: application/json' \\
  -d '{
    "model": "codellama:7b-code",
    "prompt": "def it'"'"'s():",
    "suffix": "    return 42",
    "stream": false
  }'`;
      await app.pasteInput.fill(cmd);
      await eventually(async () => assert.ok(await app.endpointGenerate.isChecked()));
      assert.equal(await app.pasteInput.inputValue(), '');
      assert.deepEqual(await app.requestJson(), {
        model: 'codellama:7b-code',
        prompt: "def it's():",
        suffix: '    return 42',
        stream: false,
      });
      await app.expectPrompt("<PRE> def it's(): <SUF>    return 42 <MID>");
      assert.match(await app.notice.textContent(), /curl.*\/api\/generate/);
    });
  });

  test('a curl command typed into the body editor, then a body for chat', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.endpointGenerate.check();
      await app.requestInput.fill(
        `curl -s http://127.0.0.1:11434/api/chat -d '{"model":"m","messages":[{"role":"user","content":"from curl"}]}'`,
      );
      await eventually(async () => assert.ok(await app.endpointChat.isChecked()));
      assert.equal((await app.requestJson()).messages[0].content, 'from curl');
      await eventually(async () => assert.match(await app.promptText(), /from curl/));
      await app.endpointGenerate.check();
      await app.pasteInput.fill('{"model": "m", "messages": [{"role": "user", "content": "from a body"}]}');
      await eventually(async () => assert.ok(await app.endpointChat.isChecked()));
      await eventually(async () => assert.match(await app.promptText(), /from a body/));
    });
  });

  test('a paste that cannot be read says why and stays', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.pasteInput.fill('curl http://localhost:11434/api/pull -d \'{"model":"m"}\'');
      await eventually(async () => assert.match(await app.pasteError.textContent(), /is none of \/api\/chat, \/api\/generate, \/v1\/chat\/completions/));
      assert.match(await app.pasteInput.inputValue(), /api\/pull/);
    });
  });
});
