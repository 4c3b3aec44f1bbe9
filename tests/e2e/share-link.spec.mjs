// A share link holds the whole state, compressed, in the URL fragment:
// opened in another browser profile it restores the same state and prompt.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { AppPage, eventually } from './support/app-page.mjs';
import { openBrowser } from './support/browser.mjs';
import { TEST_TIMEOUT, assertClean, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('share link', () => {
  test('round trip into a fresh browser profile', { timeout: TEST_TIMEOUT }, async () => {
    let url;
    let snapshot;
    await withApp(server(), async (app) => {
      await app.loadExample('qwen-tools');
      // This template does not show thinking, so think must stay unset.
      await app.thinkSelect.selectOption('');
      await app.setTemplate('{{ range .Messages }}<{{ .Role }}>{{ .Content }} — ünïcødé ✓\n{{ end }}{{ .Tools }}');
      await app.systemInput.fill('Shared system prompt');
      await app.openMore();
      await app.goTemplateEnv.selectOption('true');
      await app.page.getByLabel('Server date').fill('2024-02-29');
      await app.capability('vision').check();
      await eventually(async () => assert.match(await app.promptText(), /ünïcødé/));
      await app.shareButton.click();
      url = await app.shareUrl.inputValue();
      snapshot = {
        template: await app.templateText(),
        request: await app.requestInput.inputValue(),
        system: await app.systemInput.inputValue(),
        prompt: await app.promptText(),
      };
    });
    const origin = server().origin;
    assert.ok(url.startsWith(`${origin}/#s=`), url);
    // Nothing of the state is in the part of the URL a server sees.
    assert.equal(new URL(url).search, '');

    const browser = await openBrowser();
    try {
      const app = new AppPage(browser.page);
      await app.open(url);
      await app.expectPrompt(snapshot.prompt);
      assert.equal(await app.templateText(), snapshot.template);
      assert.equal(await app.requestInput.inputValue(), snapshot.request);
      assert.equal(await app.systemInput.inputValue(), snapshot.system);
      assert.equal(await app.goTemplateEnv.inputValue(), 'true');
      assert.equal(await app.page.getByLabel('Server date').inputValue(), '2024-02-29');
      assert.ok(await app.capability('vision').isChecked());
      // The fragment is dropped from the address bar once read; the state lives on locally.
      assert.equal(new URL(browser.page.url()).hash, '');
      assertClean(browser, [origin]);
    } finally {
      await browser.close();
    }
  });

  test('a damaged link says so and falls back', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(
      server(),
      async (app) => {
        assert.match(await app.notice.textContent(), /This share link could not be read/);
        assert.match(await app.templateText(), /range \.Messages/);
      },
      { path: '/#s=AAAAAAAA' },
    );
  });
});
