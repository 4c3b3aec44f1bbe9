// The compare pane: the Go TEMPLATE against the GGUF chat template, and
// the current template against a kept version (remembered across a
// reload), as a highlighted diff.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { anyGguf } from './support/fixtures.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();


describe('compare pane', () => {
  test('Go TEMPLATE vs GGUF chat template, then a kept version', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('gguf-wins');
      const id = (name) => app.root.getByTestId(name);
      const pane = id('compare-pane');
      const diff = id('compare-diff');
      // The example's two templates render the same prompt; give the Go one a mark.
      const original = await app.templateText();
      await app.setTemplate(`[go] ${original}`);
      await pane.getByTestId('compare-toggle').click();
      await eventually(async () => assert.equal(await id('compare-a-path').textContent(), 'go_template'));
      assert.equal(await id('compare-b-path').textContent(), 'gguf_chat_template');
      await eventually(async () => assert.ok((await diff.locator('ins, del').count()) > 0));
      assert.match(await diff.locator('del').first().textContent(), /^\[go\]/);

      // Two versions of the Go TEMPLATE (forced on so that edits show).
      await app.openMore();
      await app.goTemplateEnv.selectOption('true');
      await id('compare-mode').selectOption('version');
      await eventually(async () => assert.ok(await id('compare-note').isVisible()));
      await id('compare-keep').click();
      await eventually(async () => assert.equal(await id('compare-a-path').textContent(), 'go_template'));
      assert.equal(await id('compare-b-path').textContent(), 'go_template');
      assert.equal(await diff.locator('ins, del').count(), 0);
      // A is the edit, B the kept version.
      await app.setTemplate(`${original}MARKER one`);
      await eventually(async () => {
        // Whitespace in changes is made visible.
        assert.match((await diff.locator('del').allTextContents()).join(''), /MARKER·one/);
        assert.match((await diff.locator('ins').allTextContents()).join(''), /\[go\]/);
      });

      // The kept version survives a reload.
      await app.page.reload();
      await app.ready();
      await pane.getByTestId('compare-toggle').click();
      await id('compare-mode').selectOption('version');
      await eventually(async () => {
        assert.equal(await id('compare-note').count(), 0);
        assert.match((await diff.locator('del').allTextContents()).join(''), /MARKER·one/);
        assert.match((await diff.locator('ins').allTextContents()).join(''), /\[go\]/);
      });
    });
  });

  test('with a GGUF: token counts and a token diff', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('gguf-wins');
      const id = (name) => app.root.getByTestId(name);
      // a difference between the two sides, so that some tokens change
      await app.setTemplate(`[go] ${await app.templateText()}`);
      await id('gguf-input').setInputFiles(anyGguf());
      await eventually(async () => assert.match(await id('gguf-status').textContent(), /read .* of /), {
        timeout: 60_000,
      });
      await id('compare-toggle').click();
      await eventually(async () => assert.match(await id('compare-token-counts').textContent(), /^A: \d+ tokens, B: \d+ tokens$/));
      const tokens = id('compare-token-diff').locator('span.tok');
      assert.ok((await tokens.count()) > 0);
      assert.match(await tokens.first().getAttribute('title'), /^\d+: /);
      // Only what differs is tinted: an unchanged token has no background.
      const same = id('compare-token-diff').locator('span.tok.same').first();
      assert.equal(await same.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgba(0, 0, 0, 0)');
      const changed = id('compare-token-diff').locator('span.diff-ins, span.diff-del').first();
      assert.notEqual(await changed.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgba(0, 0, 0, 0)');
      // A token's newlines are marks inside it; one line break follows it.
      for (const text of await tokens.allTextContents()) assert.ok(!text.includes('\n'), JSON.stringify(text));
      // Keeping a version means nothing between the two engines.
      assert.equal(await id('compare-keep').count(), 0);
    });
  });
});
