// The interface speaks English, Spanish and Russian: chosen from the
// browser's language, switchable, and every string goes through the catalogue.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { eventually } from './support/app-page.mjs';
import { TEST_TIMEOUT, useAppServer, withApp } from './support/harness.mjs';

const server = useAppServer();

describe('language', () => {
  test('follows navigator.language (Spanish)', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(
      server(),
      async (app) => {
        const page = app.page;
        assert.equal(await page.locator('html').getAttribute('lang'), 'es');
        assert.equal(await page.locator('#request-heading').textContent(), 'Petición');
        assert.equal(await page.getByTestId('copy-prompt').textContent(), 'Copiar');
        assert.equal(await app.tokenCount.textContent(), '— tokens (carga un GGUF)');
        assert.equal(await app.langSelect.inputValue(), 'es');
      },
      { locale: 'es-ES' },
    );
  });

  test('the switcher changes every pane (Russian, then English)', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(server(), async (app) => {
      const page = app.page;
      assert.equal(await page.locator('#model-heading').textContent(), 'Model');
      await app.langSelect.selectOption('ru');
      await eventually(async () => assert.equal(await page.locator('#model-heading').textContent(), 'Модель'));
      assert.equal(await page.locator('#request-heading').textContent(), 'Запрос');
      assert.equal(await page.locator('#prompt-heading').textContent(), 'Промпт');
      assert.equal(await page.locator('#explain-heading').textContent(), 'Пояснение');
      assert.match(await app.promptStats.textContent(), /^символов: \d+, байт: \d+$/);
      assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
      await app.langSelect.selectOption('es');
      await eventually(async () => assert.equal(await page.locator('#explain-heading').textContent(), 'Explicación'));
      await app.langSelect.selectOption('en');
      await eventually(async () => assert.equal(await page.locator('#explain-heading').textContent(), 'Explain'));
    });
  });

  test('falls back to English for other languages', { timeout: TEST_TIMEOUT }, async () => {
    await withApp(
      server(),
      async (app) => {
        assert.equal(await app.page.locator('html').getAttribute('lang'), 'en');
      },
      { locale: 'de-DE' },
    );
  });
});
