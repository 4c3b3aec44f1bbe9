// With a GGUF, renders that tokenize run in the engine worker (fetched only
// when a GGUF is loaded), and a long count can be cancelled: with the
// Cancel button (token counting then stays off until asked again), or by
// editing on, which abandons the stale count for the new one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { llama3 } from './support/fixtures.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

// About 2.8 MB of distinct words: seconds of tokenizing (with truncation's
// recounts) on any machine.
function bigRequest() {
  const words = [];
  let x = 1;
  for (let i = 0; i < 400_000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    words.push(x.toString(36));
  }
  return JSON.stringify({ model: 'm', messages: [{ role: 'user', content: words.join(' ') }] });
}

const SMALL = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hello there' }] });
const EXPECTED_SMALL =
  '<|im_start|>system\nYou are a concise, helpful assistant.<|im_end|>\n<|im_start|>user\nHello there<|im_end|>\n<|im_start|>assistant\n';

async function loadGguf(app, fetched) {
  await app.loadExample('chatml');
  assert.equal(fetched.length, 0, 'the engine worker is not fetched without a GGUF');
  await app.page.getByTestId('gguf-input').setInputFiles(llama3());
  await eventually(async () => assert.match(await app.tokenCount.textContent(), /^\d+ tokens/), {
    timeout: 60_000,
  });
  assert.equal(fetched.length, 1, 'the engine worker was fetched for the GGUF');
}

function watchWorker(page) {
  const fetched = [];
  page.on('request', (r) => {
    if (r.url().includes('engine-worker_loader')) fetched.push(r.url());
  });
  return fetched;
}

describe('engine worker', () => {
  test('Cancel stops a long count; counting stays off until asked again', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      const fetched = watchWorker(page);
      await loadGguf(app, fetched);

      await app.setRequest(bigRequest());
      await eventually(async () => assert.equal(await page.getByTestId('token-counting').count(), 1), {
        timeout: 30_000,
      });
      // the page answers while the worker counts
      assert.equal(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r('frame')))), 'frame');
      // dispatched, not clicked: while the long prompt is laid out the page
      // may cover the button for Playwright's hit test (seen once in CI:
      // "<html> intercepts pointer events" until the count had ended)
      await page.getByTestId('token-cancel').dispatchEvent('click');

      // rendered here instead, without counting
      await eventually(async () => {
        assert.equal(await page.getByTestId('token-counting').count(), 0);
        assert.equal(await page.getByTestId('token-resume').count(), 1);
        assert.match(await app.tokenCount.textContent(), /load a GGUF/);
        assert.ok((await app.promptText()).startsWith('<|im_start|>system\n'));
      });
      // later edits do not count either
      await app.setRequest(SMALL);
      await app.expectPrompt(EXPECTED_SMALL);
      assert.match(await app.tokenCount.textContent(), /load a GGUF/);
      assert.equal(fetched.length, 1);

      await page.getByTestId('token-resume').click();
      await eventually(async () => assert.match(await app.tokenCount.textContent(), /^\d+ tokens/), {
        timeout: 30_000,
      });
      assert.equal(await page.getByTestId('token-resume').count(), 0);
      assert.equal(fetched.length, 2, 'a fresh worker counts again');
    });
  });

  test('editing on abandons a stale count for the new one', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      const fetched = watchWorker(page);
      await loadGguf(app, fetched);
      const before = await app.tokenCount.textContent();

      await app.setRequest(bigRequest());
      await eventually(async () => assert.equal(await page.getByTestId('token-counting').count(), 1), {
        timeout: 30_000,
      });
      // past the point where a newer edit restarts the worker
      await page.waitForTimeout(1200);
      await app.setRequest(SMALL);
      await eventually(
        async () => {
          assert.equal(await app.promptText(), EXPECTED_SMALL);
          assert.match(await app.tokenCount.textContent(), /^\d+ tokens/);
          assert.notEqual(await app.tokenCount.textContent(), before);
        },
        { timeout: 30_000 },
      );
      assert.equal(fetched.length, 2, 'the stale count was abandoned with its worker');
      assert.equal(await page.getByTestId('token-counting').count(), 0);
    });
  });

  test('a worker that cannot start says so, and the page renders without counting', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app, browser) => {
      const page = app.page;
      // the engine worker's script is missing (a broken deployment); the
      // page itself is already loaded, so the worker is pointed elsewhere
      await page.evaluate(() => {
        const Real = window.Worker;
        window.Worker = function (url, options) {
          const missing = String(url).includes('engine-worker') ? './missing-engine-worker.js' : url;
          return new Real(missing, options);
        };
      });
      await app.loadExample('chatml');
      await page.getByTestId('gguf-input').setInputFiles(llama3());
      await eventually(async () => assert.match(await page.getByTestId('vocab-status').textContent(), /the engine worker failed/), {
        timeout: 30_000,
      });
      await app.setRequest(SMALL);
      await app.expectPrompt(EXPECTED_SMALL);
      assert.match(await app.tokenCount.textContent(), /load a GGUF/);
      // the aborted script is the only error the page logged
      const others = browser.problems.filter((p) => !/engine-worker|404|Failed to load resource/.test(p));
      assert.deepEqual(others, []);
      browser.problems.length = 0;
    });
  });
});
