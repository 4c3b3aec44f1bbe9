// The Answer pane: what Ollama answers for what the model wrote. The raw
// output (one piece or the streamed pieces) goes through the handler's
// parsers — the model's PARSER (qwen3-coder, harmony), the generic thinking
// parser, the TEMPLATE's tool parser — and the pane shows the message, the
// stream and which parser ran. Each answer is checked against
// `promptscope parse --json` on the exported state (a parse case).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { startEmbedHost } from './support/embed-host.mjs';
import { cli, smollm2 } from './support/fixtures.mjs';
import { TEST_TIMEOUT, assertClean, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

const WEATHER = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

const CHATML =
  '{{ range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n';
const THINKING =
  '{{ range .Messages }}<|im_start|>{{ .Role }}\n{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n';
const HARMONY =
  '{{ if .Tools }}<|start|>developer<|message|>{{ range .Tools }}{{ . }}{{ end }}<|end|>{{ end }}' +
  '{{ range .Messages }}<|start|>{{ .Role }}<|message|>{{ .Content }}<|end|>{{ end }}<|start|>assistant';

const QWEN3_CODER_CALL =
  '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>';
// gpt-oss ends a call with <|call|>, an end-of-generation token the runner
// keeps out of the text
const HARMONY_ANSWER =
  '<|channel|>analysis<|message|>Let me think.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}';

const ask = (content, extra = {}) => ({ model: 'demo', messages: [{ role: 'user', content }], ...extra });

/** The Answer pane's parts. */
function pane(app) {
  const id = (t) => app.page.getByTestId(t);
  return {
    input: id('answer-input'),
    result: id('answer-result'),
    message: id('answer-message'),
    content: id('answer-content'),
    thinking: id('answer-thinking'),
    calls: id('answer-tool-call'),
    diagnosis: id('answer-diagnosis'),
    kind: id('answer-kind'),
    parser: id('answer-parser'),
    why: id('answer-why'),
    stream: id('answer-stream'),
    modeOutput: id('answer-mode-output'),
    modeChunks: id('answer-mode-chunks'),
    take: id('answer-take'),
    note: id('answer-note'),
  };
}

/** Sets the model (TEMPLATE and PARSER), the request and the model's output. */
async function setUp(app, { template, parser = '', request, output, chunks }) {
  await app.setTemplate(template);
  await app.openMore();
  await app.parserSelect.selectOption(parser);
  await app.setRequest(request);
  const p = pane(app);
  if (chunks) {
    await p.modeChunks.click();
    await p.input.fill(JSON.stringify(chunks));
  } else {
    await p.modeOutput.click();
    await p.input.fill(output);
  }
  return p;
}

/** The state as the Export button writes it: a render case with the output, a parse case. */
async function exportCase(app) {
  const [download] = await Promise.all([
    app.page.waitForEvent('download'),
    app.page.getByTestId('export-button').click(),
  ]);
  return JSON.parse(await readFile(await download.path(), 'utf8'));
}

/** `promptscope parse --json` on a case (exit status 1: Ollama fails the request). */
function cliParse(kase) {
  const r = spawnSync(cli(), ['parse', '--json', '-'], { input: JSON.stringify(kase) });
  assert.ok(r.status === 0 || r.status === 1, `promptscope parse: ${r.status} ${r.stderr}`);
  return JSON.parse(r.stdout.toString('utf8'));
}

/** Ollama draws tool-call ids at random: checks their shape and drops them. */
function withoutIds(v) {
  const copy = structuredClone(v);
  for (const call of copy?.tool_calls ?? []) {
    assert.match(call.id, /^call_[a-z0-9]{8}$/);
    delete call.id;
  }
  return copy;
}

/** What the pane shows, read back as JSON. */
async function shown(p) {
  const message = JSON.parse(await p.message.textContent());
  const stream = (await p.stream.textContent())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { message, stream, kind: await p.kind.textContent(), why: await p.why.locator('li').allTextContents() };
}

/** The pane's answer equals the CLI's for the exported state (tool-call ids aside). */
async function expectSameAsCli(app, p) {
  const kase = await exportCase(app);
  assert.ok('output' in kase || 'chunks' in kase, 'the export carries the output');
  const expected = cliParse(kase);
  assert.ok(expected.message, `the CLI answers with a message: ${JSON.stringify(expected)}`);
  await eventually(async () => {
    const got = await shown(p);
    assert.deepEqual(withoutIds(got.message), withoutIds(expected.message));
    assert.deepEqual(got.stream.map(withoutIds), expected.stream.map(withoutIds));
    assert.equal(got.kind, expected.parser.kind);
    assert.deepEqual(got.why, expected.parser.why);
  });
  return expected;
}

/** The tool calls the pane lists: name and arguments. */
async function calls(p) {
  const out = [];
  for (const row of await p.calls.all()) {
    out.push({
      name: await row.getByTestId('answer-tool-name').textContent(),
      arguments: JSON.parse(await row.getByTestId('answer-tool-args').textContent()),
    });
  }
  return out;
}

describe('the Answer pane', () => {
  test('qwen3-coder: a tool call in its XML form becomes tool_calls', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const p = await setUp(app, {
        template: CHATML,
        parser: 'qwen3-coder',
        request: ask('What is the weather in Paris?', { tools: WEATHER }),
        output: QWEN3_CODER_CALL,
      });
      await eventually(async () => assert.equal(await p.result.getAttribute('data-state'), 'message'));
      await eventually(async () => assert.deepEqual(await calls(p), [{ name: 'get_weather', arguments: { city: 'Paris' } }]));
      assert.equal(await p.parser.textContent(), 'qwen3-coder');
      assert.equal(await p.content.textContent(), '');
      assert.equal(await p.diagnosis.count(), 0);
      const expected = await expectSameAsCli(app, p);
      assert.equal(expected.message.tool_calls[0].function.name, 'get_weather');
      assert.deepEqual(expected.message.tool_calls[0].function.arguments, { city: 'Paris' });

      // the same body to /v1/chat/completions: the route's own answer
      await app.page.getByTestId('endpoint-openai-chat').check();
      const route = app.page.getByTestId('answer-route');
      const completion = await eventually(async () => JSON.parse(await route.textContent()));
      assert.equal(completion.object, 'chat.completion');
      const choice = completion.choices[0];
      assert.equal(choice.finish_reason, 'tool_calls');
      assert.equal(choice.message.tool_calls[0].function.name, 'get_weather');
      assert.deepEqual(JSON.parse(choice.message.tool_calls[0].function.arguments), { city: 'Paris' });
      await expectSameAsCli(app, p);
    });
  });

  test('harmony (gpt-oss): the analysis channel is thinking, the commentary a tool call', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const p = await setUp(app, {
        template: HARMONY,
        parser: 'harmony',
        request: ask('What is the weather in Paris?', { tools: WEATHER }),
        output: HARMONY_ANSWER,
      });
      await eventually(async () => assert.equal(await p.thinking.textContent(), 'Let me think.'));
      await eventually(async () => assert.deepEqual(await calls(p), [{ name: 'get_weather', arguments: { city: 'Paris' } }]));
      assert.equal(await p.parser.textContent(), 'harmony');
      const expected = await expectSameAsCli(app, p);
      assert.equal(expected.message.thinking, 'Let me think.');

      // <|call|> in the text: the call's JSON does not read, and Ollama fails
      // the request with the parser's error (HTTP 500)
      await p.input.fill(`${HARMONY_ANSWER}<|call|>`);
      await eventually(async () => assert.equal(await p.result.getAttribute('data-state'), 'error'));
      const failed = cliParse(await exportCase(app));
      assert.match(failed.error, /^error parsing tool call: /);
      assert.equal(await app.page.getByTestId('answer-error-text').textContent(), failed.error);
      assert.deepEqual(JSON.parse(await p.message.textContent()), { error: failed.error });
      const stream = (await p.stream.textContent()).split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(stream, failed.stream);

      // no PARSER, but family gpt-oss and a template with <|start|> and <|end|>:
      // Ollama's harmony rule picks the harmony parser all the same
      await p.input.fill(HARMONY_ANSWER);
      await app.parserSelect.selectOption('');
      await app.openMore();
      await app.page.locator('#model-family').fill('gpt-oss');
      await eventually(async () => assert.equal(await p.parser.textContent(), 'harmony'));
      await eventually(async () => assert.equal(await p.thinking.textContent(), 'Let me think.'));
      assert.deepEqual(await calls(p), [{ name: 'get_weather', arguments: { city: 'Paris' } }]);
      await expectSameAsCli(app, p);
    });
  });

  test('a tool call without tools in the request stays content, and the pane says why', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
      const p = await setUp(app, { template: CHATML, request: ask('What is the weather in Paris?'), output: call });
      await eventually(async () => assert.equal(await p.content.textContent(), call));
      assert.equal(await p.calls.count(), 0);
      await p.diagnosis.waitFor();
      const why = await p.diagnosis.locator('li').allTextContents();
      assert.match(why[0], /"<tool_call>" at line 1, column 1 of the output/);
      assert.ok(why.some((w) => /no tools/.test(w)), why.join('\n'));
      assert.match(await p.why.textContent(), /The request has no tools/);
      const expected = await expectSameAsCli(app, p);
      assert.deepEqual(why, expected.diagnosis);
      assert.equal(expected.message.content, call);
      assert.equal(expected.message.tool_calls, undefined);
    });
  });

  test('the generic thinking parser splits the thinking out of streamed pieces', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const pieces = ['<think>Let me', ' think.</thi', 'nk>Hello', '!'];
      const p = await setUp(app, {
        template: THINKING,
        request: ask('hi', { think: true }),
        chunks: pieces,
      });
      await eventually(async () => assert.equal(await p.thinking.textContent(), 'Let me think.'));
      assert.equal(await p.content.textContent(), 'Hello!');
      assert.equal(await p.kind.textContent(), 'thinking');
      assert.equal(await p.modeChunks.getAttribute('aria-pressed'), 'true');
      const kase = await exportCase(app);
      assert.deepEqual(kase.chunks, pieces);
      await expectSameAsCli(app, p);

      // one piece: the pieces joined, the same answer
      await p.modeOutput.click();
      assert.equal(await p.input.inputValue(), pieces.join(''));
      await eventually(async () => assert.equal(await p.thinking.textContent(), 'Let me think.'));
      assert.equal((await exportCase(app)).output, pieces.join(''));
      await expectSameAsCli(app, p);

      // pieces that do not read are pointed at
      await p.modeChunks.click();
      await p.input.fill('["<think>", 3]');
      await eventually(async () =>
        assert.equal(await app.page.getByTestId('answer-input-error').locator('span').textContent(), '"chunks"[1] must be a string'),
      );

      // think off: the tags stay in the content
      await p.input.fill(JSON.stringify(pieces));
      await app.setRequest(ask('hi', { think: false }));
      await eventually(async () => assert.equal(await p.content.textContent(), pieces.join('')));
      assert.equal(await p.thinking.count(), 0);

      // the input is kept with the state: a reload brings it back
      await app.page.reload();
      await app.ready();
      assert.equal(await p.input.inputValue(), JSON.stringify(pieces));
      await eventually(async () => assert.equal(await p.content.textContent(), pieces.join('')));

      // a request Ollama rejects is the answer
      await app.setRequest(ask('hi', { tools: WEATHER }));
      await eventually(async () => assert.equal(await p.result.getAttribute('data-state'), 'rejected'));
      assert.match(await app.page.getByTestId('answer-rejected').textContent(), /does not support tools/);
    });
  });

  test('Take the Generate pane\'s output: the exact pieces SmolLM2 wrote', { timeout: 400_000 }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      await app.loadExample('chatml');
      await page.getByTestId('gguf-input').setInputFiles(smollm2());
      await eventually(async () => assert.match(await page.getByTestId('gguf-status').textContent(), /read .* of /), {
        timeout: 60_000,
      });
      await app.setRequest({
        model: 'smollm2',
        messages: [{ role: 'user', content: 'What is the capital of Japan?' }],
        options: { temperature: 0, num_predict: 8 },
      });
      const p = pane(app);
      assert.equal(await p.take.isDisabled(), true, 'nothing to take before a generation');
      await page.getByTestId('generate-run').click();
      await eventually(async () => assert.equal(await page.getByTestId('generate-status').getAttribute('data-state'), 'done'), {
        timeout: 300_000,
      });
      const generated = await page.getByTestId('generate-output').textContent();
      assert.ok(generated.length > 0);
      await p.take.click();
      assert.equal(await p.modeChunks.getAttribute('aria-pressed'), 'true');
      const pieces = JSON.parse(await p.input.inputValue());
      assert.ok(pieces.length > 1, `several pieces: ${JSON.stringify(pieces)}`);
      // no parser runs for this model: the pieces are the text
      assert.equal(pieces.join(''), generated);
      await eventually(async () => assert.equal(await p.content.textContent(), generated));
    });
  });
});

describe('the Answer in an embedding page', () => {
  let host;
  before(async () => {
    host = await startEmbedHost((origin) => `${server().url}?embed=1&origin=${encodeURIComponent(origin)}`);
  });
  after(async () => {
    await host?.close();
  });

  test('a state with "output" is answered with what Ollama makes of it', { timeout: TEST_TIMEOUT }, async () => {
    const browser = await openBrowser();
    try {
      const page = browser.page;
      await page.goto(host.url);
      const received = (type) => page.evaluate((t) => window.received.filter((m) => m.data?.type === t), type);
      await eventually(async () => assert.equal((await received('promptscope:ready')).length, 1), { timeout: 30_000 });
      const state = {
        endpoint: 'chat',
        model: { template: THINKING },
        request: ask('hi', { think: true }),
        output: '<think>Let me think.</think>Hello!',
      };
      await page.evaluate((s) => window.send({ type: 'promptscope:set', id: 1, state: s }), state);
      const [reply] = await eventually(async () => {
        const r = await received('promptscope:rendered');
        assert.equal(r.length, 1);
        return r;
      });
      assert.equal(reply.data.id, 1);
      assert.equal(reply.data.error, null);
      const expected = cliParse(state);
      assert.deepEqual(reply.data.answer.message, expected.message);
      assert.deepEqual(reply.data.answer.stream, expected.stream);
      assert.deepEqual(reply.data.answer.parser, expected.parser);
      assert.deepEqual(reply.data.answer.diagnosis, []);
      // the compact layout is unchanged
      const frame = new AppPage(page.frameLocator('#frame'), page);
      await frame.promptOutput.waitFor();
      // without an output the reply has no answer
      await page.evaluate(() => window.send({ type: 'promptscope:set', id: 2, state: { output: null } }));
      const second = await eventually(async () => {
        const r = await received('promptscope:rendered');
        assert.equal(r.length, 2);
        return r[1];
      });
      assert.equal(second.data.answer, undefined);
      assertClean(browser, [server().origin, host.origin]);
    } finally {
      await browser.close();
    }
  });
});
