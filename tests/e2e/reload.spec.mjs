// Reloading keeps the state (local storage) and the preferences.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('reload', () => {
  test('keeps the model, the request and the preferences', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      await app.loadExample('fim');
      await app.setTemplate('{{ .Prompt }}|{{ .Suffix }}');
      await app.setRequest({ model: 'coder', prompt: 'def f():', suffix: 'return 1' });
      await app.expectPrompt('def f():|return 1');
      await app.whitespaceToggle.check();
      await app.themeSelect.selectOption('dark');
      await app.langSelect.selectOption('es');
      await eventually(async () => assert.equal(await app.page.locator('html').getAttribute('lang'), 'es'));
      const request = await app.requestInput.inputValue();

      await app.page.reload();
      await app.ready();
      assert.equal(await app.templateText(), '{{ .Prompt }}|{{ .Suffix }}');
      assert.equal(await app.requestInput.inputValue(), request);
      assert.ok(await app.endpointGenerate.isChecked());
      await app.expectPrompt('def·f():|return·1');
      assert.equal(await app.page.locator('html').getAttribute('data-theme'), 'dark');
      assert.equal(await app.page.locator('html').getAttribute('lang'), 'es');
      assert.equal(await app.langSelect.inputValue(), 'es');
    });
  });
});
