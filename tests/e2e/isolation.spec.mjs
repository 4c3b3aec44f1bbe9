// Cross-origin isolation through the service worker (assets/sw.js adds
// Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy to what it
// serves; the static server sends neither). The first visit reloads itself
// once when the worker takes control (assets/boot.js), never more; the
// isolated app offers and runs the threaded engine, and its answer is the
// single-threaded one's. A tab that was not reloaded stays unisolated and
// does not offer threads; and the app embedded in a page that is not
// isolated still works, single-threaded, with the worker serving it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { startEmbedHost } from './support/embed-host.mjs';
import { smollm2 } from './support/fixtures.mjs';
import { TEST_TIMEOUT, assertClean, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

const isolated = (page) => page.evaluate(() => window.crossOriginIsolated);
const engines = (page) =>
  page.getByTestId('generate-engine').locator('option').evaluateAll((os) => os.map((o) => o.value));
const controlled = (page) =>
  page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });

async function generate(app, engine) {
  const page = app.page;
  const status = page.getByTestId('generate-status');
  await page.getByTestId('generate-engine').selectOption(engine);
  await page.getByTestId('generate-run').click();
  await eventually(async () => assert.equal(await status.getAttribute('data-state'), 'done'), { timeout: 240_000 });
  const lines = (await page.getByTestId('generate-json').textContent()).split('\n').filter(Boolean);
  const last = JSON.parse(lines.at(-1));
  return {
    runner: await page.getByTestId('generate-runner').textContent(),
    text: await page.getByTestId('generate-output').textContent(),
    counts: [last.prompt_eval_count, last.eval_count, last.done_reason],
  };
}

describe('cross-origin isolation', () => {
  test('the first visit reloads once and is isolated; Generate runs on threads', { timeout: 400_000 }, async () => {
    const browser = await openBrowser({ isolationReload: true });
    try {
      const page = browser.page;
      let loads = 0;
      page.on('load', () => loads++);
      const app = new AppPage(page);
      await app.open(server().url);
      // the worker installs, takes control, and the page reloads by itself
      await eventually(async () => assert.equal(await isolated(page), true), { timeout: 60_000 });
      await app.ready();
      assert.equal(loads, 2, 'one load, then one reload');
      assert.notEqual(await page.evaluate(() => sessionStorage.getItem('promptscope.isolation-reload')), null);
      await controlled(page);
      assert.equal(await page.evaluate(() => typeof SharedArrayBuffer), 'function');
      // the headers come from the worker: the server sends none
      const headers = await page.evaluate(async () => {
        const res = await fetch('./');
        return [res.headers.get('cross-origin-opener-policy'), res.headers.get('cross-origin-embedder-policy')];
      });
      assert.deepEqual(headers, ['same-origin', 'require-corp']);
      // no loop: still two loads a while later
      await page.waitForTimeout(1500);
      assert.equal(loads, 2, 'no second reload');

      assert.deepEqual(await engines(page), ['auto', 'webgpu', 'cpu-threads', 'cpu-relaxed', 'cpu-simd128']);
      await app.loadExample('chatml');
      await app.hasTemplate.uncheck();
      await page.getByTestId('gguf-input').setInputFiles(smollm2());
      await eventually(async () => assert.match(await page.getByTestId('gguf-status').textContent(), /read .* of /), {
        timeout: 60_000,
      });
      await app.requestInput.fill(
        JSON.stringify({
          model: 'smollm2',
          messages: [{ role: 'user', content: 'Name three colours.' }],
          options: { temperature: 0, num_predict: 24 },
        }),
      );
      await eventually(async () =>
        assert.match(await app.promptOutput.textContent(), /<\|im_start\|>user\nName three colours\.<\|im_end\|>\n<\|im_start\|>assistant\n$/),
      );
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      const threads = Math.min(Math.max(cores, 1), 8);
      const threaded = await generate(app, 'cpu-threads');
      assert.ok(
        threaded.runner.endsWith(`CPU wasm relaxed-simd (fused multiply-add), ${threads} thread${threads === 1 ? '' : 's'}`),
        `runner: ${threaded.runner}`,
      );
      assert.ok(threads > 1 || cores <= 1, `a pool of ${threads} for ${cores} cores`);
      const single = await generate(app, 'cpu-relaxed');
      assert.ok(single.runner.endsWith('CPU wasm relaxed-simd (fused multiply-add), 1 thread'), `runner: ${single.runner}`);
      assert.deepEqual(threaded, { ...single, runner: threaded.runner }, 'the same answer on threads');
      assert.ok(threaded.text.length > 0);
      assertClean(browser, [server().origin]);
    } finally {
      await browser.close();
    }
  });

  test('a page the worker did not serve is not isolated and offers no threads', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      await controlled(page);
      assert.equal(await isolated(page), false);
      assert.deepEqual(await engines(page), ['auto', 'webgpu', 'cpu-relaxed', 'cpu-simd128']);
      // served by the worker from now on
      await page.reload();
      await app.ready();
      assert.equal(await isolated(page), true);
      assert.deepEqual(await engines(page), ['auto', 'webgpu', 'cpu-threads', 'cpu-relaxed', 'cpu-simd128']);
    });
  });

  test('embedded in a page that is not isolated, the app works without threads', { timeout: TEST_TIMEOUT }, async () => {
    const browser = await openBrowser();
    // a frame the worker can serve (not sandboxed: same site), after a visit installed it
    const host = await startEmbedHost(
      (origin) => `${server().url}?embed=1&origin=${encodeURIComponent(origin)}`,
      { sandbox: null },
    );
    try {
      const app = new AppPage(browser.page);
      await app.open(server().url);
      await controlled(browser.page);
      await browser.page.goto(host.url);
      await eventually(async () =>
        assert.ok((await browser.page.evaluate(() => window.received)).some((m) => m.data?.type === 'promptscope:ready')),
      { timeout: 30_000 });
      const frame = browser.page.frames().find((f) => f.url().includes('embed=1'));
      assert.ok(frame, 'the frame loaded');
      assert.equal(await browser.page.evaluate(() => window.crossOriginIsolated), false);
      assert.equal(await frame.evaluate(() => window.crossOriginIsolated), false);
      assert.equal(await frame.evaluate(() => navigator.serviceWorker.controller !== null), true, 'the worker serves the frame');
      const reply = await browser.page.evaluate(
        () =>
          new Promise((resolve) => {
            window.addEventListener('message', (e) => e.data?.type === 'promptscope:rendered' && resolve(e.data));
            window.send({ type: 'promptscope:get', id: 7 });
          }),
      );
      assert.equal(reply.id, 7);
      assert.match(reply.prompt, /<\|im_start\|>/);
      assertClean(browser, [server().origin, host.origin]);
    } finally {
      await browser.close();
      await host.close();
    }
  });
});
