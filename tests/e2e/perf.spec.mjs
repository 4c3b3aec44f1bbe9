// Benchmark: typing into a built-in-style template (tools and thinking)
// with 20 messages and tools loaded. Prints the render times measured by
// the app's performance marks; asserts only that the prompt keeps up.
//
//   promptscope:render  the engine: request + template → prompt (one per frame)
//   promptscope:frame   the work in the frame: render, then the prompt's DOM updated
//   promptscope:update  from the edit to the prompt's DOM being updated (includes
//                       the wait for the next animation frame)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

const KEYS = 'typing into the template!';

function tools() {
  const names = ['get_weather', 'search_web', 'read_file', 'send_email'];
  return names.map((name) => ({
    type: 'function',
    function: {
      name,
      description: `The ${name.replace('_', ' ')} tool`,
      parameters: {
        type: 'object',
        required: ['query'],
        properties: {
          query: { type: 'string', description: 'What to look for' },
          limit: { type: 'integer', description: 'At most this many results' },
        },
      },
    },
  }));
}

function messages() {
  const out = [{ role: 'system', content: 'You are a helpful assistant with tools.' }];
  for (let i = 0; out.length < 20; i++) {
    out.push({ role: 'user', content: `Question ${i}: what is the weather in city ${i}?` });
    if (out.length < 20 && i % 2 === 0) {
      out.push({
        role: 'assistant',
        content: '',
        thinking: `I should call a tool for city ${i}.`,
        tool_calls: [{ function: { name: 'get_weather', arguments: { query: `city ${i}` } } }],
      });
    } else if (out.length < 20) {
      out.push({ role: 'assistant', content: `It is ${10 + i} degrees in city ${i}.` });
    }
    if (out.length < 20 && i % 2 === 0) {
      out.push({ role: 'tool', tool_name: 'get_weather', content: `{"temperature": ${10 + i}}` });
    }
  }
  return out;
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return {
    n: sorted.length,
    median: pick(0.5),
    p95: pick(0.95),
    max: sorted[sorted.length - 1],
  };
}

const ms = (v) => `${v.toFixed(2)} ms`;

describe('performance', () => {
  test('keystroke to prompt, 20 messages with tools', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('qwen-tools');
      const body = { model: 'qwen-demo', think: true, messages: messages(), tools: tools() };
      assert.equal(body.messages.length, 20);
      await app.setRequest(body);
      await eventually(async () => assert.match(await app.promptText(), /Question 7: /));
      assert.equal(await app.errorText(), null);
      const promptBytes = (await app.promptText()).length;

      await app.templateInput.focus();
      await app.templateInput.press('Control+End');
      await app.page.evaluate(() => performance.clearMeasures());
      // A short pause per key so that each keystroke gets its own frame.
      await app.templateInput.pressSequentially(KEYS, { delay: 40 });
      await eventually(async () => assert.ok((await app.promptText()).endsWith(KEYS)));

      const [render, frame, update] = await app.page.evaluate(() =>
        ['promptscope:render', 'promptscope:frame', 'promptscope:update'].map((name) =>
          performance.getEntriesByName(name).map((e) => e.duration),
        ),
      );
      assert.ok(render.length > 0 && frame.length > 0 && update.length > 0, 'no performance measures');
      const r = stats(render);
      const f = stats(frame);
      const u = stats(update);
      console.log(
        `perf: ${KEYS.length} keystrokes, 20 messages, ${body.tools.length} tools, prompt ${promptBytes} characters`,
      );
      console.log(`perf: render (engine)       n=${r.n} median ${ms(r.median)} p95 ${ms(r.p95)} max ${ms(r.max)}`);
      console.log(`perf: work in the frame     n=${f.n} median ${ms(f.median)} p95 ${ms(f.p95)} max ${ms(f.max)}`);
      console.log(`perf: keystroke to DOM      n=${u.n} median ${ms(u.median)} p95 ${ms(u.p95)} max ${ms(u.max)}`);
    });
  });
});
