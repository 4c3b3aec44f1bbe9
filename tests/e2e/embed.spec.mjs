// ?embed=1: the compact layout in a sandboxed iframe on another origin,
// driven through the postMessage API; messages from origins outside the
// URL's allow-list are ignored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { startEmbedHost } from './support/embed-host.mjs';
import { TEST_TIMEOUT, assertClean, useAppServer } from './support/harness.mjs';

const server = useAppServer();

const STATE = {
  endpoint: 'chat',
  model: { template: '{{ range .Messages }}<{{ .Role }}>{{ .Content }}\n{{ end }}', system: '' },
  request: { model: 'docs-demo', messages: [{ role: 'user', content: 'Hello from the docs' }] },
};

let allowedHost;
let otherHost;

before(async () => {
  const frame = (allowed) => `${server().url}?embed=1&origin=${encodeURIComponent(allowed)}`;
  allowedHost = await startEmbedHost((origin) => frame(origin));
  // This page embeds the app too, but the app only trusts allowedHost.
  otherHost = await startEmbedHost(() => frame(allowedHost.origin));
});

after(async () => {
  await allowedHost?.close();
  await otherHost?.close();
});

async function received(page, type) {
  return page.evaluate((t) => window.received.filter((m) => m.data && m.data.type === t), type);
}

describe('embedding', () => {
  test('postMessage sets the state and answers with the prompt', { timeout: TEST_TIMEOUT }, async () => {
    const browser = await openBrowser();
    try {
      const page = browser.page;
      await page.goto(allowedHost.url);
      // The app says it is ready, to the allowed origin only.
      await eventually(async () => assert.equal((await received(page, 'promptscope:ready')).length, 1), {
        timeout: 30_000,
      });
      const frame = new AppPage(page.frameLocator('#frame'), page);
      // The compact layout: the prompt, no editors.
      await frame.promptOutput.waitFor();
      assert.equal(await frame.templateInput.count(), 0);

      await page.evaluate((state) => window.send({ type: 'promptscope:set', id: 7, state }), STATE);
      const [reply] = await eventually(async () => {
        const r = await received(page, 'promptscope:rendered');
        assert.equal(r.length, 1);
        return r;
      });
      assert.equal(reply.data.id, 7);
      assert.equal(reply.data.prompt, '<user>Hello from the docs\n');
      assert.equal(reply.data.error, null);
      assert.equal(reply.data.source, 'go_template');
      // The frame shows the same prompt.
      await frame.expectPrompt('<user>Hello from the docs\n');
      assert.equal(await frame.selectedPath.textContent(), 'go_template');

      // A partial state changes only what it names; errors come back as Ollama says them.
      await page.evaluate(() =>
        window.send({
          type: 'promptscope:set',
          id: 8,
          state: {
            request: {
              model: 'docs-demo',
              messages: [{ role: 'user', content: 'x' }],
              tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
            },
          },
        }),
      );
      const rejected = await eventually(async () => {
        const r = (await received(page, 'promptscope:rendered')).find((m) => m.data.id === 8);
        assert.ok(r);
        return r;
      });
      assert.equal(rejected.data.prompt, null);
      assert.equal(rejected.data.error, 'registry.ollama.ai/library/docs-demo:latest does not support tools');

      // promptscope:get answers without changing anything.
      await page.evaluate(() => window.send({ type: 'promptscope:get', id: 9 }));
      await eventually(async () => {
        const r = (await received(page, 'promptscope:rendered')).find((m) => m.data.id === 9);
        assert.ok(r);
        assert.match(r.data.error, /does not support tools/);
      });
      // A compatibility route: the reply carries the converted request, the
      // field fates and, when the route refuses, its own error body.
      await page.evaluate(() =>
        window.send({
          type: 'promptscope:set',
          id: 10,
          state: {
            endpoint: 'openai-chat',
            request: { model: 'docs-demo', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 },
          },
        }),
      );
      const routed = await eventually(async () => {
        const r = (await received(page, 'promptscope:rendered')).find((m) => m.data.id === 10);
        assert.ok(r);
        return r;
      });
      assert.equal(routed.data.prompt, '<user>Hi\n');
      assert.equal(routed.data.route.endpoint, 'openai-chat');
      assert.equal(routed.data.route.path, '/v1/chat/completions');
      assert.deepEqual(routed.data.route.api_request.options, { num_predict: 5, temperature: 1, top_p: 1 });
      assert.equal(routed.data.route.fields.find((f) => f.field === 'max_tokens').fate, 'mapped');
      assert.equal(routed.data.route.error_body, null);
      await page.evaluate(() =>
        window.send({ type: 'promptscope:set', id: 11, state: { request: { model: 'docs-demo', messages: [] } } }),
      );
      const refused = await eventually(async () => {
        const r = (await received(page, 'promptscope:rendered')).find((m) => m.data.id === 11);
        assert.ok(r);
        return r;
      });
      assert.equal(refused.data.error, "[] is too short - 'messages'");
      assert.deepEqual(JSON.parse(refused.data.route.error_body), {
        error: { message: "[] is too short - 'messages'", type: 'invalid_request_error', param: null, code: null },
      });
      assertClean(browser, [server().origin, allowedHost.origin]);
    } finally {
      await browser.close();
    }
  });

  test('a message from an origin that is not allowed is ignored', { timeout: TEST_TIMEOUT }, async () => {
    const browser = await openBrowser();
    try {
      const page = browser.page;
      await page.goto(otherHost.url);
      const frame = new AppPage(page.frameLocator('#frame'), page);
      await frame.promptOutput.waitFor({ timeout: 30_000 });
      await eventually(async () => assert.match(await frame.promptText(), /<\|im_start\|>/));
      const before = await frame.promptText();
      await page.evaluate((state) => window.send({ type: 'promptscope:set', id: 1, state }), STATE);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // No ready message and no answer reached this page, and nothing changed.
      assert.deepEqual(await page.evaluate(() => window.received), []);
      assert.equal(await frame.promptText(), before);
      assertClean(browser, [server().origin, otherHost.origin]);
    } finally {
      await browser.close();
    }
  });
});
