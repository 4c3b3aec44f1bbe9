// Offline PWA: after one visit the service worker has cached the app, and a
// reload with the network off still renders, and counts a GGUF's tokens
// (the engine worker was cached too).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { llama3 } from './support/fixtures.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('offline', () => {
  test('the app reloads and renders with the network off', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app, browser) => {
      await app.loadExample('chatml');
      const prompt = await app.promptText();
      assert.match(prompt, /<\|im_start\|>/);
      // The worker is installed (its install precaches the app) and controls the page.
      await app.page.evaluate(() => navigator.serviceWorker.ready);
      await app.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
      const manifest = await app.page.evaluate(async () => (await fetch('manifest.webmanifest')).json());
      assert.equal(manifest.name, 'Promptscope');

      // The network off: Chromium's offline emulation, and the server
      // itself down (Chromium 148 drops the emulation when a reload swaps
      // the renderer process, so the server must not answer either).
      await browser.context.setOffline(true);
      server().setDown(true);
      const answered = server().answered();
      await app.page.reload();
      await app.ready();
      await app.expectPrompt(prompt);
      await app.page.getByTestId('gguf-input').setInputFiles(llama3());
      await eventually(async () => assert.match(await app.tokenCount.textContent(), /^\d+ tokens/), {
        timeout: 30_000,
      });
      assert.equal(server().answered(), answered, 'nothing was served by the network while offline');
      server().setDown(false);
      await browser.context.setOffline(false);
    });
  });
});
