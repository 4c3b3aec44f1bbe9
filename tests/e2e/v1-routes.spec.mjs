// Ollama's compatibility routes (/v1/chat/completions, /v1/completions,
// /v1/responses, /v1/messages): a pasted curl command or SDK body picks the
// route, the prompt is what Ollama renders after converting the body, and
// Explain shows the converted request and what happened to each field.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { cli } from './support/fixtures.mjs';
import { TEST_TIMEOUT, assertClean, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

/** The Explain row of a body field: its fate (data-fate) and its text. */
async function fieldRow(app, field) {
  const row = app.page.locator(`[data-testid="route-field"][data-field="${field}"]`);
  await eventually(async () => (await row.count()) === 1);
  return { fate: await row.getAttribute('data-fate'), text: await row.textContent() };
}

const OPENAI_CURL = `curl http://localhost:11434/v1/chat/completions \\
  -H "Content-Type: application/json" \\
  -H "Authorization: Bearer ollama" \\
  -d '{
    "model": "qwen-demo",
    "messages": [
      {"role": "system", "content": "You are terse."},
      {"role": "user", "content": "What is 2+2? It'"'"'s easy."}
    ],
    "max_tokens": 64,
    "n": 1,
    "stream": false
  }'`;

// A Claude Code-style body: system blocks with cache_control, tools with
// input_schema, a tool_use block and a tool_result block beside text.
const CLAUDE_BODY = {
  model: 'qwen-demo',
  max_tokens: 32000,
  system: [
    { type: 'text', text: "You are a coding agent in the user's terminal.", cache_control: { type: 'ephemeral' } },
    { type: 'text', text: '\nUse the tools to read and change files. Be concise.', cache_control: { type: 'ephemeral' } },
  ],
  tools: [
    {
      name: 'Bash',
      description: 'Runs a shell command.',
      input_schema: {
        type: 'object',
        properties: { command: { type: 'string', description: 'The command' } },
        required: ['command'],
        additionalProperties: false,
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
    },
    {
      name: 'Read',
      description: 'Reads a file.',
      input_schema: {
        type: 'object',
        properties: { file_path: { type: 'string' } },
        required: ['file_path'],
        additionalProperties: false,
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
    },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Which Go version does go.mod ask for?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me read it.' },
        { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/src/go.mod' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01', content: 'module example.com/p\n\ngo 1.24' },
        { type: 'text', text: 'Answer in one word.' },
      ],
    },
  ],
  metadata: { user_id: 'user_abc' },
  stream: true,
};

describe('compatibility routes', () => {
  test('an OpenAI SDK curl fills /v1/chat/completions and Explain names each field', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      // the first visit's ChatML model
      await app.pasteInput.fill(OPENAI_CURL);
      await eventually(async () => assert.ok(await app.page.getByTestId('endpoint-openai-chat').isChecked()));
      assert.ok(!(await app.endpointChat.isChecked()));
      assert.equal(await app.pasteInput.inputValue(), '');
      assert.match(await app.notice.textContent(), /curl.*\/v1\/chat\/completions/);
      // the body stays the client's
      assert.equal((await app.requestJson()).max_tokens, 64);
      assert.match(await app.page.getByTestId('route-hint').textContent(), /POST \/v1\/chat\/completions.*\/api\/chat/);
      await app.expectPrompt(
        "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nWhat is 2+2? It's easy.<|im_end|>\n<|im_start|>assistant\n",
      );

      assert.equal(await app.page.getByTestId('route-summary').textContent(), 'POST /v1/chat/completions → /api/chat');
      const api = JSON.parse(await app.page.getByTestId('api-request').textContent());
      assert.deepEqual(api.options, { num_predict: 64, temperature: 1, top_p: 1 });
      assert.equal(api.stream, false);
      assert.equal(api.messages[1].content, "What is 2+2? It's easy.");
      assert.equal(JSON.parse(await app.page.getByTestId('route-body').textContent()).n, 1);

      const maxTokens = await fieldRow(app, 'max_tokens');
      assert.equal(maxTokens.fate, 'mapped');
      assert.match(maxTokens.text, /options\.num_predict/);
      const temperature = await fieldRow(app, 'temperature');
      assert.equal(temperature.fate, 'defaulted');
      assert.match(temperature.text, /options\.temperature = 1 \(OpenAI's default\)/);
      const n = await fieldRow(app, 'n');
      assert.equal(n.fate, 'dropped');
      assert.match(n.text, /not a field of openai\.ChatCompletionRequest/);
      assert.equal((await fieldRow(app, 'stream')).fate, 'mapped');

      // this route has _debug_render_only
      const curl = await app.debugCurl.textContent();
      assert.ok(curl.startsWith("curl http://localhost:11434/v1/chat/completions -d '{\"model\":\"qwen-demo\""), curl);
      assert.match(curl, /"_debug_render_only":true\}'$/);
      assert.match(await app.page.getByTestId('debug-note').textContent(), /hands _debug_render_only on to the native handler/);
      assert.equal(await app.page.getByTestId('debug-curl-native').count(), 0);
    });
  });

  test('a Claude Code-style body picks /v1/messages: tool_result becomes a tool message', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      // a model whose template renders tools
      await app.loadExample('qwen-tools');
      await app.pasteInput.fill(JSON.stringify(CLAUDE_BODY, null, 2));
      await eventually(async () => assert.ok(await app.page.getByTestId('endpoint-anthropic-messages').isChecked()));
      assert.match(await app.notice.textContent(), /Filled from the request body \(\/v1\/messages\)/);
      await eventually(async () =>
        assert.ok(
          (await app.promptText()).startsWith(
            "<|im_start|>system\nYou are a coding agent in the user's terminal.\nUse the tools to read and change files. Be concise.\n\n# Tools\n",
          ),
        ),
      );
      const prompt = await app.promptText();
      assert.ok(
        prompt.includes(
          '{"type":"function","function":{"name":"Read","description":"Reads a file.","parameters":{"type":"object","required":["file_path"],"properties":{"file_path":{"type":"string"}}}}}',
        ),
        prompt,
      );
      assert.ok(
        prompt.endsWith(
          '<|im_start|>assistant\nLet me read it.\n<tool_call>\n{"name": "Read", "arguments": {"file_path":"/src/go.mod"}}\n</tool_call><|im_end|>\n' +
            '<|im_start|>user\n<tool_response>\nmodule example.com/p\n\ngo 1.24\n</tool_response><|im_end|>\n' +
            '<|im_start|>user\nAnswer in one word.<|im_end|>\n<|im_start|>assistant\n',
        ),
        prompt,
      );

      // the converted messages: the tool_result is a tool message before the user's text
      const roles = await app.explainMessages.locator('tbody tr td:nth-child(2)').allTextContents();
      assert.deepEqual(roles, ['system', 'user', 'assistant', 'tool', 'user']);
      const api = JSON.parse(await app.page.getByTestId('api-request').textContent());
      assert.equal(api.messages[3].role, 'tool');
      assert.equal(api.messages[2].tool_calls[0].function.name, 'Read');
      assert.deepEqual(api.options, { num_predict: 32000 });
      assert.equal(await app.page.getByTestId('route-summary').textContent(), 'POST /v1/messages → /api/chat');

      const route = await fieldRow(app, '(route)');
      assert.equal(route.fate, 'mapped');
      assert.match(route.text, /relax_thinking: think: true on a model that cannot think is dropped, not refused/);
      assert.match((await fieldRow(app, 'system')).text, /cache_control is ignored/);
      assert.match((await fieldRow(app, 'messages')).text, /tool_result blocks become tool messages/);
      assert.equal((await fieldRow(app, 'metadata')).fate, 'dropped');
      assert.match((await fieldRow(app, 'tools')).text, /input_schema becomes parameters/);

      // no _debug_render_only on /v1/messages: the UI says so and offers the native request
      const curl = await app.debugCurl.textContent();
      assert.ok(curl.startsWith("curl http://localhost:11434/v1/messages -d '"), curl);
      assert.ok(!curl.includes('_debug_render_only'), curl);
      assert.match(await app.page.getByTestId('debug-note').textContent(), /has no _debug_render_only: this command runs the model/);
      const native = await app.page.getByTestId('debug-curl-native').textContent();
      assert.ok(native.startsWith("curl http://localhost:11434/api/chat -d '{\"model\":\"qwen-demo\""), native);
      assert.match(native, /"_debug_render_only":true\}'$/);
      // the form leaves the block lists to the JSON editor
      assert.match(await app.page.getByTestId('system-parts').textContent(), /2 content part/);
    });
  });

  test('a refused body answers in the route\'s error shape; completions go to /api/generate', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.page.getByTestId('endpoint-anthropic-messages').check();
      await app.setRequest({ model: 'm', max_tokens: 5, messages: [] });
      await eventually(async () => assert.equal(await app.errorText(), 'messages is required'));
      const body = JSON.parse(await app.page.getByTestId('error-body').textContent());
      assert.equal(body.type, 'error');
      assert.deepEqual(body.error, { type: 'invalid_request_error', message: 'messages is required' });
      assert.match(body.request_id, /^req_/);
      const rejection = await app.explainRejection.textContent();
      assert.match(rejection, /HTTP 400/);
      assert.match(rejection, /\{"type":"error","error":\{"type":"invalid_request_error","message":"messages is required"\}/);
      assert.match(await app.page.getByTestId('route-refused').first().textContent(), /refused the body/);

      // an OpenAI-style refusal
      await app.page.getByTestId('endpoint-openai-chat').check();
      await app.setRequest({ model: 'm', messages: [{ role: 'user', content: 42 }] });
      await eventually(async () => assert.match((await app.errorText()) ?? '', /invalid message content type/));
      const openai = JSON.parse(await app.page.getByTestId('error-body').textContent());
      assert.equal(openai.error.type, 'invalid_request_error');
      assert.equal(openai.error.param, null);

      // a completions body is guessed from its shape and goes to /api/generate
      await app.setTemplate('{{ if .Suffix }}<PRE> {{ .Prompt }} <SUF>{{ .Suffix }} <MID>{{ else }}{{ .Prompt }}{{ end }}');
      await app.pasteInput.fill('{"model": "coder", "prompt": "def f():", "suffix": "\\n    return 1", "max_tokens": 16}');
      await eventually(async () => assert.ok(await app.page.getByTestId('endpoint-openai-completions').isChecked()));
      await app.expectPrompt('<PRE> def f(): <SUF>\n    return 1 <MID>');
      assert.equal(await app.page.getByTestId('route-summary').textContent(), 'POST /v1/completions → /api/generate');
      assert.equal((await fieldRow(app, 'suffix')).fate, 'mapped');
      assert.match(await app.debugCurl.textContent(), /^curl http:\/\/localhost:11434\/v1\/completions -d '.*"_debug_render_only":true\}'$/);
    });
  });

  test('the route examples travel in share links and export as render cases the CLI renders', { timeout: TEST_TIMEOUT }, async () => {
    let url;
    let prompt;
    await withApp(server(), async (app) => {
      await app.loadExample('responses');
      await eventually(async () => assert.ok(await app.page.getByTestId('endpoint-openai-responses').isChecked()));
      await eventually(async () => assert.match(await app.promptText(), /<\|im_start\|>system\nYou are a travel assistant\./));
      assert.match(await app.promptText(), /\{"name": "get_weather", "arguments": \{"city":"Tokyo"\}\}/);
      assert.equal((await fieldRow(app, 'instructions')).fate, 'mapped');
      assert.equal((await fieldRow(app, 'temperature')).fate, 'defaulted');

      await app.loadExample('claude-code');
      await eventually(async () => assert.ok(await app.page.getByTestId('endpoint-anthropic-messages').isChecked()));
      await eventually(async () => assert.match(await app.promptText(), /<tool_response>\n--- FAIL: TestParseDuration/));
      prompt = await app.promptText();
      const [download] = await Promise.all([
        app.page.waitForEvent('download'),
        app.page.getByTestId('export-button').click(),
      ]);
      const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
      assert.equal(exported.endpoint, 'anthropic-messages');
      assert.equal(exported.request.system[0].cache_control.type, 'ephemeral');
      assert.equal(exported.request.options, undefined);
      // the CLI renders the exported case to the same prompt
      exported.date = '2025-06-15';
      const out = JSON.parse(execFileSync(cli(), ['render', '--json', '-'], { input: JSON.stringify(exported) }).toString('utf8'));
      assert.equal(out.prompt, prompt);
      assert.equal(out.native_endpoint, 'chat');

      await app.loadExample('openai-tools');
      await eventually(async () => assert.ok(await app.page.getByTestId('endpoint-openai-chat').isChecked()));
      await eventually(async () =>
        assert.match(await app.promptText(), /\{"name": "get_weather", "arguments": \{"city":"Paris","unit":"celsius"\}\}/),
      );
      prompt = await app.promptText();
      await app.page.getByTestId('share-button').click();
      url = await app.shareUrl.inputValue();
    });

    const browser = await openBrowser();
    try {
      const app = new AppPage(browser.page);
      await app.open(url);
      await app.expectPrompt(prompt);
      assert.ok(await app.page.getByTestId('endpoint-openai-chat').isChecked());
      assertClean(browser, [server().origin]);
    } finally {
      await browser.close();
    }
  });
});
